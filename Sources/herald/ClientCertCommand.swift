import ArgumentParser
import Foundation
import HeraldCore
import HeraldSandbox

/// `herald sandbox client-cert`: writes a client certificate shaped like Apple's Push Services
/// certificates, to try certificate authentication against the sandbox.
struct ClientCertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client-cert",
        abstract: "Make a Push Services-style client certificate for the sandbox's certificate authentication.",
        discussion: """
            Writes <out>.cert.pem and <out>.key.pem (the key readable by you only). The sandbox reads \
            the bundle id, extra topics and environments from it as APNs reads them from Apple's \
            certificates; Apple's APNs does not accept it.
            """
    )

    @Option(help: "The app's bundle id (the certificate's subject UID).")
    var bundleID: String

    @Option(name: .customLong("topic"), help: "Another topic the certificate covers, e.g. com.example.app.voip; repeatable.")
    var topics: [String] = []

    @Option(help: "Environments the certificate names: development, production or both.")
    var environment: EnvironmentChoice = .both

    @Option(parsing: .unconditional, help: "Days the certificate is valid from now; a negative number (--days -1) makes an expired one.")
    var days = 365

    @Option(help: "Path prefix of the files to write.")
    var out = "herald-client"

    enum EnvironmentChoice: String, ExpressibleByArgument, CaseIterable {
        case development, production, both
        var environments: Set<APNsEnvironment> {
            switch self {
            case .development: [.development]
            case .production: [.production]
            case .both: [.development, .production]
            }
        }
    }

    func validate() throws {
        guard !bundleID.isEmpty, !bundleID.contains(where: \.isWhitespace) else {
            throw ValidationError("--bundle-id must be a bundle id such as com.example.app")
        }
        for topic in topics where !topic.hasPrefix(bundleID + ".") {
            throw ValidationError("--topic \(topic) must start with the bundle id, as Apple's topics do (\(bundleID).voip, \(bundleID).complication, …)")
        }
        guard days != 0 else { throw ValidationError("--days must not be 0") }
    }

    func run() throws {
        let now = Date()
        let end = now.addingTimeInterval(Double(days) * 86_400)
        let validity = days > 0 ? now.addingTimeInterval(-3600)...end : end.addingTimeInterval(-86_400)...end
        let issued: PushCertificateIssuer.Issued
        do {
            issued = try PushCertificateIssuer().issue(bundleID: bundleID, environments: environment.environments, additionalTopics: topics, validity: validity)
        } catch {
            throw CommandError("cannot make the certificate: \(error)").exit(command: "sandbox client-cert")
        }
        let certPath = out + ".cert.pem"
        let keyPath = out + ".key.pem"
        do {
            // Each file ends with a newline, so `cat cert key > both.pem` stays valid PEM.
            try Data((issued.certificatePEM + "\n").utf8).write(to: URL(fileURLWithPath: certPath))
            try Data((issued.privateKeyPEM + "\n").utf8).write(to: URL(fileURLWithPath: keyPath))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyPath)
        } catch {
            throw CommandError("cannot write \(certPath) and \(keyPath): \(error.localizedDescription)").exit(command: "sandbox client-cert")
        }
        say("certificate: \(certPath)")
        say("private key: \(keyPath)")
        say("topics: \(([bundleID] + topics).joined(separator: ", ")); environments: \(environment.rawValue)")
        say("use it: curl --http2 --cacert <sandbox certificate> --cert \(certPath) --key \(keyPath) -H \"apns-push-type: alert\" -d '{\"aps\":{\"alert\":\"Hello\"}}' https://127.0.0.1:2197/3/device/<token>")
    }
}
