import Crypto
import Foundation
import HeraldCore
import Testing
@testable import herald

/// `herald send` end to end against `herald sandbox`, both run as a user would.
@Suite(.serialized) struct SendCommandTests {
    struct Target {
        let sandbox: RunningHerald
        let port: Int
        let adminPort: Int
        let certificate: String
        let keyPath: String
        let folder: URL

        /// One HERALD_HOME for every run against this sandbox, so they share one provider token
        /// (a second token within 20 minutes would be TooManyProviderTokenUpdates).
        var home: [String: String] { ["HERALD_HOME": folder.appendingPathComponent("home").path] }

        var common: [String] {
            ["send", "--url", "https://127.0.0.1:\(port)", "--cacert", certificate, "--key", keyPath, "--team-id", "DEF123GHIJ", "--bundle-id", "com.example.app"]
        }

        /// Notifications the sandbox received for a token (its admin API, through curl).
        func received(_ token: String) throws -> String {
            try runTool("/usr/bin/curl", ["-sS", "http://127.0.0.1:\(adminPort)/devices/\(token)/notifications"]).stdout
        }
    }

    func start() async throws -> Target {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-send-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let keyPath = folder.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
        try P256.Signing.PrivateKey().pemRepresentation.write(toFile: keyPath, atomically: true, encoding: .utf8)
        let certificate = folder.appendingPathComponent("sandbox.pem").path
        let sandbox = try RunningHerald([
            "sandbox", "--port", "0", "--admin-port", "0", "--auto-accept", "--cert-out", certificate,
            "--key-file", keyPath, "--team-id", "DEF123GHIJ",
        ])
        let port = try #require(SandboxCommandTests.port(in: try await sandbox.line(containing: "listening on https://127.0.0.1:")))
        let adminPort = try #require(SandboxCommandTests.port(in: try await sandbox.line(containing: "admin API: http://127.0.0.1:")))
        return Target(sandbox: sandbox, port: port, adminPort: adminPort, certificate: certificate, keyPath: keyPath, folder: folder)
    }

    static let tokenA = String(repeating: "ab", count: 32)
    static let tokenB = String(repeating: "cd", count: 40)   // an 80-byte token, as simulators have

    @Test func flagsPayloadToSeveralTokens() async throws {
        let target = try await start()
        let output = try HeraldCLI.run(target.common + ["--title", "Hello", "--body", "From flags", "--badge", "3", "--token", Self.tokenA, "--token", Self.tokenB])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.split(separator: "\n").filter { $0.hasPrefix("200 ") }.count == 2, "\(output.stdout)")
        #expect(output.stderr.contains("sent 2: 2 accepted, 0 failed"), "\(output.stderr)")
        #expect(try target.received(Self.tokenB).contains("From flags"))
        _ = await target.sandbox.terminate()
    }

    @Test func tokensFileAndJSONOutput() async throws {
        let target = try await start()
        let file = target.folder.appendingPathComponent("tokens.txt").path
        try "# devices\n\(Self.tokenA)\n\n<\(Self.tokenB.prefix(8)) \(Self.tokenB.dropFirst(8))>  # with spaces\nnot-a-token\n".write(toFile: file, atomically: true, encoding: .utf8)
        let output = try HeraldCLI.run(target.common + ["--body", "From a file of tokens", "--tokens-file", file, "--json"])
        #expect(output.status == 1, "one token is invalid, so the exit status is 1")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(output.stdout)")
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        #expect(objects.filter { $0["status"] as? Int == 200 }.count == 2)
        #expect(objects.contains { ($0["token"] as? String) == "not-a-token" && $0["error"] != nil })
        #expect(objects.last?["succeeded"] as? Int == 2 && objects.last?["failed"] as? Int == 1)
        _ = await target.sandbox.terminate()
    }

    @Test func payloadFromStandardInput() async throws {
        let target = try await start()
        let payload = #"{"aps":{"alert":{"title":"Piped","body":"in"},"mutable-content":1},"media":{"url":"https://example.com/a.jpg","type":"image"}}"#
        let output = try HeraldCLI.run(target.common + ["--payload", "-", "--token", Self.tokenA], stdin: payload)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try target.received(Self.tokenA).contains("Piped"))
        _ = await target.sandbox.terminate()
    }

    @Test func lintErrorsStopTheSendUnlessForced() async throws {
        let target = try await start()
        let background = ["--payload", "-", "--push-type", "background", "--priority", "10", "--token", Self.tokenA]
        let refused = try HeraldCLI.run(target.common + background, stdin: #"{"aps":{"content-available":1}}"#)
        #expect(refused.status == 1 && refused.stderr.contains("nothing was sent"), "\(refused.stderr)")
        #expect(!(try target.received(Self.tokenA)).contains("content-available"))
        let forced = try HeraldCLI.run(target.common + background + ["--force"], stdin: #"{"aps":{"content-available":1}}"#)
        #expect(forced.status == 1 && forced.stdout.contains("400") && forced.stdout.contains("BadPriority"), "\(forced.stdout)")
        _ = await target.sandbox.terminate()
    }

    @Test func oneAPNsIDPerNotificationKeptAcrossItsRetries() async throws {
        let target = try await start()
        // The sandbox answers the first request 503; the retry must carry the same apns-id.
        let faults = try runTool("/usr/bin/curl", ["-sS", "-X", "PUT", "-d", #"{"script":[503]}"#, "http://127.0.0.1:\(target.adminPort)/faults"])
        #expect(faults.stdout.contains(#""script":[503]"#), "\(faults)")
        let output = try HeraldCLI.run(target.common + ["--body", "Retried", "--token", Self.tokenA], environment: target.home)
        #expect(output.status == 0, "\(output.stderr)")
        let line = try #require(output.stdout.split(separator: "\n").first { $0.hasPrefix("200 ") })
        #expect(line.contains("after 2 attempts"), "\(line)")
        let id = try #require(line.split(separator: " ").drop { $0 != "apns-id" }.dropFirst().first.map(String.init))
        #expect(try NotificationID(id).canonical == id, "a UUID made by herald send, lowercase: \(id)")
        let refused = try await target.sandbox.line(containing: " 503 ServiceUnavailable ")
        let accepted = try await target.sandbox.line(containing: " 200 ")
        #expect(refused.hasSuffix("apns-id \(id)") && accepted.hasSuffix("apns-id \(id)"), "\(refused) / \(accepted)")

        // An id given is sent as spelt, and APNs (the sandbox) echoes it so.
        let upper = "123E4567-E89B-12D3-A456-426614174000"
        let spelt = try HeraldCLI.run(target.common + ["--body", "Capitals", "--token", Self.tokenA, "--apns-id", upper, "--json"], environment: target.home)
        #expect(spelt.status == 0 && spelt.stdout.contains(#""apnsID":"\#(upper)""#), "\(spelt.stdout)")
        // One id names one notification: with two tokens it is refused, and nothing is sent.
        let two = try HeraldCLI.run(target.common + ["--body", "Two", "--token", Self.tokenA, "--token", Self.tokenB, "--apns-id", upper], environment: target.home)
        #expect(two.status == 64 && two.stderr.contains("--apns-id names one notification, and this send makes 2"), "\(two.stderr)")
        _ = await target.sandbox.terminate()
    }

    @Test func the410TimestampKeepsItsMilliseconds() async throws {
        let target = try await start()
        _ = try runTool("/usr/bin/curl", ["-sS", "-X", "PUT", "-d", #"{"script":["410 Unregistered","410 Unregistered"]}"#, "http://127.0.0.1:\(target.adminPort)/faults"])
        let json = try HeraldCLI.run(target.common + ["--body", "Gone", "--token", Self.tokenA, "--json"], environment: target.home)
        let line = try #require(json.stdout.split(separator: "\n").first { $0.contains("Unregistered") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        // Apple's form: milliseconds since 1970, as a number; and the same moment in ISO 8601.
        let milliseconds = try #require(object["timestamp"] as? Int64)
        #expect(abs(Double(milliseconds) / 1000 - Date().timeIntervalSince1970) < 60, "\(milliseconds)")
        let since = try #require(object["since"] as? String)
        #expect(since.contains(".") && since.hasSuffix("Z"), "ISO 8601 with milliseconds: \(since)")
        let text = try HeraldCLI.run(target.common + ["--body", "Gone", "--token", Self.tokenA], environment: target.home)
        #expect(text.stdout.contains(" ms) apns-id "), "\(text.stdout)")
        _ = await target.sandbox.terminate()
    }

    @Test func anUntrustedCertificateIsSaidPlainlyAndNotRetried() async throws {
        let target = try await start()
        // No --cacert: the sandbox's self-signed certificate does not verify with the system's roots.
        let untrusted = target.common.filter { $0 != "--cacert" && $0 != target.certificate }
        // Thirty tokens: the refusal is remembered, so they fail at once, not a handshake each.
        let tokens = (0..<30).flatMap { ["--token", String(format: "%02x", $0) + String(repeating: "ab", count: 31)] }
        let start = ContinuousClock.now
        let output = try HeraldCLI.run(untrusted + ["--body", "Untrusted"] + tokens, environment: target.home)
        let elapsed = ContinuousClock.now - start
        #expect(output.status == 1)
        let lines = output.stdout.split(separator: "\n").filter { $0.hasPrefix("--- ") }.map(String.init)
        #expect(lines.count == 30, "\(output.stdout)")
        for line in lines {
            #expect(line.contains("the server's certificate did not verify") && line.contains("--cacert"), "\(line)")
            #expect(!line.contains("after "), "a certificate that does not verify is not tried again: \(line)")
            #expect(!line.contains("/.build/") && !line.contains(".cc:"), "no source paths from BoringSSL: \(line)")
        }
        #expect(elapsed < .seconds(10), "30 notifications to a refused server took \(elapsed)")
        _ = await target.sandbox.terminate()
    }

    @Test func aTokenListedTwiceIsSaidAndUniqueSendsOnce() async throws {
        let target = try await start()
        let file = target.folder.appendingPathComponent("tokens.txt").path
        try "\(Self.tokenA)\n\(Self.tokenB)\n\(Self.tokenA.uppercased())\nzz\nzz\n".write(toFile: file, atomically: true, encoding: .utf8)
        let twice = try HeraldCLI.run(target.common + ["--body", "Twice", "--tokens-file", file], environment: target.home)
        #expect(twice.status == 1 && twice.stderr.contains("1 token(s) listed more than once (ababab…ababab ×2)"), "\(twice.stderr)")
        #expect(twice.stderr.contains("sent 3: 3 accepted, 2 failed"), "\(twice.stderr)")
        let once = try HeraldCLI.run(target.common + ["--body", "Once", "--tokens-file", file, "--unique"], environment: target.home)
        #expect(once.stderr.contains("each is sent once (--unique)") && once.stderr.contains("sent 2: 2 accepted, 1 failed"), "\(once.stderr)")
        _ = await target.sandbox.terminate()
    }

    @Test func simulatorFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("push.apns").path
        let output = try HeraldCLI.run(["send", "--bundle-id", "com.example.app", "--title", "Sim", "--body", "ulator", "--save-apns", path])
        #expect(output.status == 0, "\(output.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        #expect(object?["Simulator Target Bundle"] as? String == "com.example.app")
        #expect((object?["aps"] as? [String: Any])?["alert"] != nil)
    }

    @Test func badUsageIsExplained() throws {
        let noPayload = try HeraldCLI.run(["send", "--token", Self.tokenA])
        #expect(noPayload.status == 64 && noPayload.stderr.contains("no payload"), "\(noPayload.stderr)")
        let both = try HeraldCLI.run(["send", "--sandbox", "--production", "--title", "x"])
        #expect(both.status != 0 && both.stderr.contains("choose one of --sandbox, --production and --url"), "\(both.stderr)")
        let url = try HeraldCLI.run(["send", "--url", "ftp://x", "--title", "x", "--body", "y", "--topic", "com.example.app", "--token", Self.tokenA, "--key", "k.p8", "--team-id", "T"])
        #expect(url.status == 64 && url.stderr.contains("--url must look like"), "\(url.stderr)")
        let noKey = try HeraldCLI.run(["send", "--title", "x", "--body", "y", "--token", Self.tokenA, "--topic", "com.example.app"])
        #expect(noKey.status == 64 && noKey.stderr.contains("no credentials"), "\(noKey.stderr)")
    }
}

@Suite struct ProgressLineTests {
    @Test func barRateAndETA() {
        #expect(ProgressLine.text(done: 6000, total: 10000, elapsed: .seconds(2)) == "[██████████████░░░░░░░░░░] 6000/10000  3000/s  ETA 2s")
        #expect(ProgressLine.text(done: 0, total: 10, elapsed: .zero) == "[░░░░░░░░░░░░░░░░░░░░░░░░] 0/10  0/s  ETA ?")
    }
}

@Suite(.serialized) struct SendCertificateTests {
    @Test func aP12CertificateFromKeychainAccess() async throws {
        let target = try await SendCommandTests().start()
        let prefix = target.folder.appendingPathComponent("push").path
        let made = try HeraldCLI.run(["sandbox", "client-cert", "--bundle-id", "com.example.app", "--out", prefix])
        #expect(made.status == 0, "\(made.stderr)")
        let both = prefix + ".both.pem"
        try (String(contentsOfFile: prefix + ".cert.pem", encoding: .utf8) + String(contentsOfFile: prefix + ".key.pem", encoding: .utf8))
            .write(toFile: both, atomically: true, encoding: .utf8)
        let exported = try runTool("/usr/bin/openssl", ["pkcs12", "-export", "-in", both, "-out", prefix + ".p12", "-passout", "pass:s3cret"])
        #expect(exported.status == 0, "\(exported.stderr)")

        let token = String(repeating: "9a", count: 32)
        let sent = try HeraldCLI.run([
            "send", "--url", "https://127.0.0.1:\(target.port)", "--cacert", target.certificate,
            "--cert", prefix + ".p12", "--cert-password", "s3cret", "--bundle-id", "com.example.app",
            "--title", "Over", "--body", "a p12", "--token", token,
        ])
        #expect(sent.status == 0 && sent.stdout.hasPrefix("200 "), "\(sent.stdout) \(sent.stderr)")
        #expect(try target.received(token).contains("a p12"))
        let wrong = try HeraldCLI.run([
            "send", "--url", "https://127.0.0.1:\(target.port)", "--cacert", target.certificate,
            "--cert", prefix + ".p12", "--cert-password", "nope", "--bundle-id", "com.example.app", "--title", "x", "--body", "y", "--token", token,
        ])
        #expect(wrong.status == 64 && wrong.stderr.contains("cannot open the PKCS#12 file"), "\(wrong.stderr)")
        _ = await target.sandbox.terminate()
    }
}
