import Crypto
import Foundation
import HeraldCore
import SwiftASN1
import X509

/// Makes client certificates shaped like Apple's Push Services certificates, so certificate
/// authentication can be tried against the sandbox (`herald sandbox client-cert`, `curl --cert`).
/// The sandbox reads the bundle id, topics and environments from them exactly as it reads Apple's.
public struct PushCertificateIssuer: Sendable {
    /// A PEM certificate and its PEM private key.
    public struct Issued: Sendable {
        public let certificatePEM: String
        public let privateKeyPEM: String

        public init(certificatePEM: String, privateKeyPEM: String) {
            self.certificatePEM = certificatePEM
            self.privateKeyPEM = privateKeyPEM
        }
    }

    public init() {}

    /// A self-signed P-256 certificate for `bundleID`.
    ///
    /// - Parameters:
    ///   - environments: the environment extensions to include (Apple's universal certificates
    ///     carry both; an empty set makes a certificate that names none).
    ///   - additionalTopics: topics beyond the bundle id (`<bundle>.voip`, …), listed with the
    ///     bundle id in the topics extension. With none, no topics extension is written.
    ///   - teamID: written as the subject's organizational unit, as Apple does.
    ///   - validity: the certificate's validity period (Apple's last a year).
    public func issue(
        bundleID: String, environments: Set<APNsEnvironment> = [.development, .production],
        additionalTopics: [String] = [], teamID: String = "TEAMID0000",
        validity: ClosedRange<Date> = Date().addingTimeInterval(-3600)...Date().addingTimeInterval(365 * 24 * 3600)
    ) throws -> Issued {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName([
            RelativeDistinguishedName(.init(type: ASN1ObjectIdentifier(dotRepresentation: PushCertificateFields.userIDAttribute), utf8String: bundleID)),
            RelativeDistinguishedName(.init(type: .RDNAttributeType.commonName, utf8String: PushCertificateFields.commonNamePrefix + bundleID)),
            RelativeDistinguishedName(.init(type: .RDNAttributeType.organizationalUnitName, utf8String: teamID)),
            RelativeDistinguishedName(.init(type: .RDNAttributeType.countryName, printableString: "US")),
        ])
        var extensions = Certificate.Extensions()
        try extensions.append(Certificate.Extension(ExtendedKeyUsage([.clientAuth]), critical: false))
        let null: ArraySlice<UInt8> = [0x05, 0x00]
        for environment in environments.sorted(by: { $0.rawValue < $1.rawValue }) {
            let oid = environment == .production ? PushCertificateFields.productionExtension : PushCertificateFields.developmentExtension
            try extensions.append(Certificate.Extension(oid: ASN1ObjectIdentifier(dotRepresentation: oid), critical: false, value: null))
        }
        if !additionalTopics.isEmpty {
            var serializer = DER.Serializer()
            try serializer.appendConstructedNode(identifier: .sequence) { coder in
                for topic in [bundleID] + additionalTopics {
                    try coder.serialize(ASN1UTF8String(topic))
                    let kind = topic == bundleID ? "app" : String(topic.dropFirst(bundleID.count + 1))
                    try coder.appendConstructedNode(identifier: .sequence) { try $0.serialize(ASN1UTF8String(kind)) }
                }
            }
            let oid = try ASN1ObjectIdentifier(dotRepresentation: PushCertificateFields.topicsExtension)
            try extensions.append(Certificate.Extension(oid: oid, critical: false, value: ArraySlice(serializer.serializedBytes)))
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: validity.lowerBound, notValidAfter: validity.upperBound,
            issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions, issuerPrivateKey: Certificate.PrivateKey(key)
        )
        return Issued(certificatePEM: try certificate.serializeAsPEM().pemString, privateKeyPEM: key.pemRepresentation)
    }
}
