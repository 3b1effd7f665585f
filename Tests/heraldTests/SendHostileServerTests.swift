import Crypto
import Foundation
import Testing

/// `herald send` against servers that are broken or hostile: each send ends within a bound,
/// fails, and says why; none reconnects in a tight loop.
@Suite("herald send against a hostile server")
struct SendHostileServerTests {
    func send(to server: HostileServer, _ extra: [String]) throws -> (output: HeraldCLI.Output, elapsed: Duration) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = folder.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
        try P256.Signing.PrivateKey().pemRepresentation.write(toFile: key, atomically: true, encoding: .utf8)
        var output: HeraldCLI.Output?
        let elapsed = try ContinuousClock().measure {
            output = try HeraldCLI.run([
                "send", "--url", "http://127.0.0.1:\(server.port)", "--key", key, "--team-id", "DEF123GHIJ",
                "--bundle-id", "com.example.app", "--title", "Hi", "--token", String(repeating: "ab", count: 32),
            ] + extra)
        }
        return (output!, elapsed)
    }

    @Test func aServerThatAllowsNoStreamFailsWithinTheAttempts() async throws {
        // Before: each timeout "not processed", resent up to 100 times whatever --attempts said
        // (101 × the timeout, ~18 minutes at the default).
        let server = try await HostileServer.start(.noStreams)
        defer { server.stop() }
        let (output, elapsed) = try send(to: server, ["--timeout", "1", "--attempts", "2"])
        #expect(output.status != 0)
        #expect(elapsed < .seconds(6), "took \(elapsed)")
        #expect(output.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS is 0"), "\(output.stdout)\(output.stderr)")
    }

    @Test func anEndlessAnswerBodyIsCutAndReported() async throws {
        let server = try await HostileServer.start(.endlessBody)
        defer { server.stop() }
        let (output, elapsed) = try send(to: server, ["--timeout", "5", "--attempts", "1"])
        #expect(output.status != 0)
        #expect(elapsed < .seconds(5), "took \(elapsed)")
        #expect(output.stdout.contains("longer than 65536 bytes"), "\(output.stdout)\(output.stderr)")
    }

    @Test func anEndlessHeaderBlockIsReportedForWhatItIs() async throws {
        // Before: reported only as "connection closed".
        let server = try await HostileServer.start(.endlessHeaderBlock)
        defer { server.stop() }
        let (output, elapsed) = try send(to: server, ["--timeout", "5", "--attempts", "1"])
        #expect(output.status != 0)
        #expect(elapsed < .seconds(5), "took \(elapsed)")
        #expect(output.stdout.contains("header block longer than"), "\(output.stdout)\(output.stderr)")
    }

    @Test func aWindowOverflowDoesNotReconnectInATightLoop() async throws {
        // Before: ~100 immediate reconnects in 4.6 s.
        let server = try await HostileServer.start(.windowOverflow)
        defer { server.stop() }
        let (output, elapsed) = try send(to: server, ["--timeout", "2", "--attempts", "3"])
        #expect(output.status != 0)
        #expect(elapsed < .seconds(15), "took \(elapsed)")
        #expect(server.accepted <= 10, "\(server.accepted) connections")
        #expect(output.stdout.contains("window went above 2^31-1"), "\(output.stdout)\(output.stderr)")
    }

    @Test func goAwayOnEveryConnectionEndsAfterAFewBackedOffTries() async throws {
        // Before: ~100 immediate reconnects, "the server kept refusing the stream".
        let server = try await HostileServer.start(.goAwayAtOnce)
        defer { server.stop() }
        let (output, elapsed) = try send(to: server, ["--timeout", "2", "--attempts", "3"])
        #expect(output.status != 0)
        #expect(elapsed < .seconds(15), "took \(elapsed)")
        #expect(server.accepted <= 10, "\(server.accepted) connections")
        #expect(output.stdout.contains("GOAWAY"), "\(output.stdout)\(output.stderr)")
    }

    @Test func aSilentServerCostsTheConnectTimeoutPerAttempt() async throws {
        // Before: 40–45 s, and no way to shorten the wait for a connection.
        let server = try await HostileServer.start(.silent)
        defer { server.stop() }
        let (output, elapsed) = try send(to: server, ["--connect-timeout", "1", "--attempts", "2"])
        #expect(output.status != 0)
        #expect(elapsed < .seconds(6), "took \(elapsed)")
        #expect(output.stdout.contains("SETTINGS within 1000 ms") || output.stdout.contains("no HTTP/2 settings within the connect timeout"), "\(output.stdout)\(output.stderr)")
    }
}
