import Crypto
import Foundation
import Testing

/// `herald sandbox` end to end, driven by curl (a client independent of Herald) exactly as Apple
/// documents for testing from the command line.
@Suite(.serialized) struct SandboxCommandTests {
    static let curl = "/usr/bin/curl"

    /// The port in the first `127.0.0.1:<port>` of a printed line.
    static func port(in line: String) -> Int? {
        guard let range = line.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else { return nil }
        return Int(line[range].split(separator: ":")[1])
    }

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("herald-sandbox-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Starts `herald sandbox` on free ports and returns it with its APNs port.
    func startSandbox(_ extra: [String], certificate: String) async throws -> (RunningHerald, Int) {
        let sandbox = try RunningHerald(["sandbox", "--port", "0", "--admin-port", "0", "--cert-out", certificate] + extra)
        let line = try await sandbox.line(containing: "listening on https://127.0.0.1:")
        let port = try #require(Self.port(in: line))
        return (sandbox, port)
    }

    @Test
    func applesCurlCommandWithAProviderToken() async throws {
        let dir = try folder()
        let keyPath = dir.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
        try P256.Signing.PrivateKey().pemRepresentation.write(toFile: keyPath, atomically: true, encoding: .utf8)
        let certificate = dir.appendingPathComponent("sandbox.pem").path
        let (sandbox, port) = try await startSandbox(["--key-file", keyPath, "--team-id", "DEF123GHIJ"], certificate: certificate)
        let printed = sandbox.printed
        #expect(printed.contains("certificate to trust: \(certificate)"))
        #expect(printed.contains("curl --http2 --cacert \(certificate)"))

        // Register a device through the admin API, as the sandbox's banner says.
        let adminLine = try await sandbox.line(containing: "admin API: http://127.0.0.1:")
        let adminPort = try #require(Self.port(in: adminLine))
        let registered = try runTool(Self.curl, ["-sS", "-X", "POST", "-d", #"{"topic":"com.example.app"}"#, "http://127.0.0.1:\(adminPort)/devices"])
        let deviceToken = try #require(registered.stdout.split(separator: "\"").drop { $0 != "token" }.dropFirst(2).first.map(String.init), "\(registered)")

        let jwt = try HeraldCLI.run(["token", "--key", keyPath, "--team-id", "DEF123GHIJ"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let response = try runTool(Self.curl, [
            "-sS", "-i", "--http2", "--cacert", certificate,
            "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert",
            "-H", "authorization: bearer \(jwt)",
            "-d", #"{"aps":{"alert":"Hello from curl"}}"#,
            "https://127.0.0.1:\(port)/3/device/\(deviceToken)",
        ])
        #expect(response.status == 0, "\(response.stderr)")
        #expect(response.stdout.hasPrefix("HTTP/2 200"), "\(response.stdout)")
        #expect(response.stdout.range(of: #"apns-id: [0-9a-f-]{36}"#, options: .regularExpression) != nil, "\(response.stdout)")

        // The device received it (admin API), and a token signed by another key is refused.
        let received = try runTool(Self.curl, ["-sS", "http://127.0.0.1:\(adminPort)/devices/\(deviceToken)/notifications"])
        #expect(received.stdout.contains("Hello from curl"), "\(received.stdout)")
        let otherKey = dir.appendingPathComponent("AuthKey_ZZZ999YYYX.p8").path
        try P256.Signing.PrivateKey().pemRepresentation.write(toFile: otherKey, atomically: true, encoding: .utf8)
        let otherJWT = try HeraldCLI.run(["token", "--key", otherKey, "--team-id", "DEF123GHIJ"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let refused = try runTool(Self.curl, [
            "-sS", "-i", "--http2", "--cacert", certificate, "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert",
            "-H", "authorization: bearer \(otherJWT)", "-d", #"{"aps":{"alert":"x"}}"#, "https://127.0.0.1:\(port)/3/device/\(deviceToken)",
        ])
        #expect(refused.stdout.hasPrefix("HTTP/2 403") && refused.stdout.contains(#"{"reason":"InvalidProviderToken"}"#), "\(refused.stdout)")

        // One log line per request, and a clean stop on SIGTERM.
        _ = try await sandbox.line(containing: "403 InvalidProviderToken")
        #expect(await sandbox.terminate() == 0)
        #expect(sandbox.printed.contains("shutting down"))
    }

    @Test
    func curlWithAClientCertificate() async throws {
        let dir = try folder()
        let prefix = dir.appendingPathComponent("client").path
        let made = try HeraldCLI.run(["sandbox", "client-cert", "--bundle-id", "com.example.app", "--environment", "development", "--out", prefix])
        #expect(made.status == 0, "\(made.stderr)")
        let keyAttributes = try FileManager.default.attributesOfItem(atPath: prefix + ".key.pem")
        #expect((keyAttributes[.posixPermissions] as? Int) == 0o600)

        let certificate = dir.appendingPathComponent("sandbox.pem").path
        let (sandbox, port) = try await startSandbox(["--auto-accept"], certificate: certificate)
        let token = String(repeating: "ab", count: 32)
        let response = try runTool(Self.curl, [
            "-sS", "-i", "--http2", "--cacert", certificate, "--cert", prefix + ".cert.pem", "--key", prefix + ".key.pem",
            "-H", "apns-push-type: alert", "-d", #"{"aps":{"alert":"Hello"}}"#, "https://127.0.0.1:\(port)/3/device/\(token)",
        ])
        #expect(response.stdout.hasPrefix("HTTP/2 200"), "\(response.stdout) \(response.stderr)")

        // A production-only certificate against the development sandbox.
        let production = try HeraldCLI.run(["sandbox", "client-cert", "--bundle-id", "com.example.app", "--environment", "production", "--out", prefix + "-prod"])
        #expect(production.status == 0)
        let refused = try runTool(Self.curl, [
            "-sS", "-i", "--http2", "--cacert", certificate, "--cert", prefix + "-prod.cert.pem", "--key", prefix + "-prod.key.pem",
            "-H", "apns-push-type: alert", "-d", #"{"aps":{"alert":"Hello"}}"#, "https://127.0.0.1:\(port)/3/device/\(token)",
        ])
        #expect(refused.stdout.hasPrefix("HTTP/2 403") && refused.stdout.contains("BadCertificateEnvironment"), "\(refused.stdout)")
        #expect(await sandbox.terminate() == 0)
    }

    @Test func aNegativeDaysMakesAnExpiredCertificate() throws {
        let prefix = try folder().appendingPathComponent("expired").path
        // "--days -1" as a user types it, not only "--days=-1".
        let made = try HeraldCLI.run(["sandbox", "client-cert", "--bundle-id", "com.example.app", "--days", "-1", "--out", prefix])
        #expect(made.status == 0, "\(made.stderr)")
        let check = try runTool("/usr/bin/openssl", ["x509", "-checkend", "0", "-noout", "-in", prefix + ".cert.pem"])
        #expect(check.status == 1 && check.stdout.contains("will expire"), "expired already: \(check)")
    }

    @Test func badArgumentsAreExplained() throws {
        let output = try HeraldCLI.run(["sandbox", "--cert", "only-a-cert.pem"])
        #expect(output.status != 0 && output.stderr.contains("--cert and --key go together"), "\(output.stderr)")
        let topic = try HeraldCLI.run(["sandbox", "client-cert", "--bundle-id", "com.example.app", "--topic", "com.other.voip"])
        #expect(topic.status != 0 && topic.stderr.contains("must start with the bundle id"), "\(topic.stderr)")
    }
}
