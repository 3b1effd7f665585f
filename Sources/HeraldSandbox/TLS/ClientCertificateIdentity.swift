import Foundation
import HeraldCore
import SwiftASN1
import X509

/// What an APNs client certificate allows: its topics and environments, read from the fields
/// Apple puts in Push Services certificates (see ``PushCertificateFields``).
struct ClientCertificateIdentity: Sendable {
    /// The bundle id (subject UID) first, then any other topics the certificate lists.
    var topics: [String]
    /// The environments the certificate names; empty when it names none (then both are allowed).
    var environments: Set<APNsEnvironment>
    /// Why APNs would answer `BadCertificate` (not a push certificate, expired, unreadable).
    var problem: String?

    /// Reads a DER certificate as the sandbox's TLS layer received it.
    init(der: [UInt8], now: Date) {
        let certificate: Certificate
        do {
            certificate = try Certificate(derEncoded: der)
        } catch {
            self.init(topics: [], environments: [], problem: "the client certificate cannot be read: \(error)")
            return
        }
        self.init(certificate: certificate, now: now)
    }

    init(certificate: Certificate, now: Date) {
        var topics: [String] = []
        let uid = try? ASN1ObjectIdentifier(dotRepresentation: PushCertificateFields.userIDAttribute)
        for rdn in certificate.subject {
            for attribute in rdn where attribute.type == uid {
                if let value = String(attribute.value), !value.isEmpty { topics.append(value) }
            }
        }
        if let oid = try? ASN1ObjectIdentifier(dotRepresentation: PushCertificateFields.topicsExtension),
            let listed = certificate.extensions[oid: oid]
        {
            for topic in Self.topics(inExtensionValue: listed.value) where !topics.contains(topic) { topics.append(topic) }
        }
        let environments = PushCertificateFields.environments(extensionOIDs: certificate.extensions.map { $0.oid.description })
        var problem: String?
        if topics.isEmpty {
            problem = "the client certificate names no topic (no subject UID and no topic list): it is not an Apple Push Services certificate"
        } else if now < certificate.notValidBefore || now > certificate.notValidAfter {
            problem = "the client certificate is valid from \(certificate.notValidBefore) to \(certificate.notValidAfter), not now"
        }
        self.init(topics: topics, environments: environments, problem: problem)
    }

    init(topics: [String], environments: Set<APNsEnvironment>, problem: String?) {
        self.topics = topics
        self.environments = environments
        self.problem = problem
    }

    /// Whether the certificate may connect to `environment`.
    func allows(_ environment: APNsEnvironment) -> Bool {
        environments.isEmpty || environments.contains(environment)
    }

    /// The UTF-8 strings directly inside the topics extension's sequence (the topic names; the
    /// nested sequences beside them describe each topic's kind and are skipped).
    static func topics(inExtensionValue value: ArraySlice<UInt8>) -> [String] {
        guard let node = try? DER.parse(value), case .constructed(let children) = node.content else { return [] }
        var topics: [String] = []
        for child in children where child.identifier == .utf8String {
            if let string = try? ASN1UTF8String(derEncoded: child) { topics.append(String(string)) }
        }
        return topics
    }
}
