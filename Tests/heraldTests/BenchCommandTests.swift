import Foundation
import Testing

/// `herald bench` and `herald bench serve` against their in-process sandbox: they send what they
/// say and report it.
@Suite struct BenchCommandTests {
    @Test func smallRunReportsEveryNotification() throws {
        let output = try HeraldCLI.run(["bench", "-n", "300", "-c", "2", "-m", "20", "--devices", "7", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(report["notifications"] as? Int == 300)
        #expect((report["failures"] as? [String: Any])?.isEmpty == true)
        #expect((report["perSecond"] as? Double ?? 0) > 0)
        let p50 = report["p50Milliseconds"] as? Double ?? -1
        let p99 = report["p99Milliseconds"] as? Double ?? -1
        let max = report["maxMilliseconds"] as? Double ?? -1
        #expect(p50 > 0 && p50 <= p99 && p99 <= max, "percentiles in order: \(p50) \(p99) \(max)")
        #expect((report["peakMemoryMegabytes"] as? Double ?? 0) > 0)
    }

    @Test func badArgumentsAreExplained() throws {
        let output = try HeraldCLI.run(["bench", "-n", "0"])
        #expect(output.status != 0 && output.stderr.contains("must be at least 1"), "\(output.stderr)")
        let url = try HeraldCLI.run(["bench", "--url", "ftp://x"])
        #expect(url.status != 0 && url.stderr.contains("--url must look like https://host:port or http://host:port"), "\(url.stderr)")
        let unreachable = try HeraldCLI.run(["bench", "-n", "10", "--url", "http://127.0.0.1:1"])
        #expect(unreachable.status == 64 && unreachable.stderr.contains("could not connect"), "\(unreachable.stderr)")
    }

    @Test func benchSignsWithTheKeyItIsGivenOrAProfiles() async throws {
        // A sandbox that verifies signatures with its key file: a random key is refused.
        let target = try await SendCommandTests().start()
        let server = ["bench", "-n", "50", "-c", "1", "-m", "10", "--devices", "5", "--json", "--url", "https://127.0.0.1:\(target.port)", "--cacert", target.certificate]
        let unsigned = try HeraldCLI.run(server)
        #expect(unsigned.status == 1 && unsigned.stdout.contains(#""InvalidProviderToken" : 50"#), "\(unsigned.stdout)\(unsigned.stderr)")
        // One home for the runs that sign with the key: they share its token, as runs on one
        // machine do (a second token within 20 minutes is TooManyProviderTokenUpdates).
        let home = ["HERALD_HOME": target.folder.appendingPathComponent("home").path]
        let signed = try HeraldCLI.run(server + ["--key", target.keyPath, "--team-id", "DEF123GHIJ"], environment: home)
        #expect(signed.status == 0 && signed.stdout.contains(#""failures" : {"#) && !signed.stdout.contains("InvalidProviderToken"), "\(signed.stdout)\(signed.stderr)")

        // The same from a profile: its URL, certificate, key and bundle id.
        let added = try HeraldCLI.run([
            "profile", "add", "local", "--url", "https://127.0.0.1:\(target.port)", "--cacert", target.certificate,
            "--key", target.keyPath, "--team-id", "DEF123GHIJ", "--bundle-id", "com.example.app",
        ], environment: home)
        #expect(added.status == 0, "\(added.stderr)")
        let profiled = try HeraldCLI.run(["bench", "-n", "50", "-c", "1", "-m", "10", "--profile", "local", "--json"], environment: home)
        #expect(profiled.status == 0 && profiled.stdout.contains(#""notifications" : 50"#), "\(profiled.stdout)\(profiled.stderr)")
        _ = try HeraldCLI.run(["profile", "add", "apple", "--sandbox", "--key", target.keyPath, "--team-id", "DEF123GHIJ"], environment: home)
        let apple = try HeraldCLI.run(["bench", "-n", "5", "--profile", "apple"], environment: home)
        #expect(apple.status != 0 && apple.stderr.contains("a benchmark sends only to a server you run"), "\(apple.stderr)")
        _ = await target.sandbox.terminate()
    }

    @Test func serveBenchBroadcastsToEveryRegisteredDevice() throws {
        let output = try HeraldCLI.run(["bench", "serve", "-n", "500", "--workers", "2", "--batch-size", "100", "--rounds", "2", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stdout)")
        #expect(report["devices"] as? Int == 500)
        #expect(report["delivered"] as? Int == 500)
        #expect(report["failed"] as? Int == 0)
        #expect((report["perSecond"] as? Double ?? 0) > 0)
        #expect((report["baselinePerSecond"] as? Double ?? 0) > 0)
        #expect((report["ratio"] as? Double ?? 0) > 0)
        #expect((report["peakMemoryMegabytes"] as? Double ?? 0) > 0)
        #expect((report["store"] as? String ?? "").hasPrefix("SQLite"))
        // Two rounds, each a raw run and a broadcast to every device (the second a new
        // notification to the same devices); the top-level figures are the median round's.
        let rounds = try #require(report["rounds"] as? [[String: Any]])
        #expect(rounds.count == 2)
        #expect(rounds.allSatisfy { $0["delivered"] as? Int == 500 && ($0["microsecondsPerNotification"] as? Double ?? 0) > 0 })
        #expect(rounds.contains { $0["ratio"] as? Double == report["ratio"] as? Double })

        let bad = try HeraldCLI.run(["bench", "serve", "--database", "x.sqlite", "--postgres", "postgres://u@h/d"])
        #expect(bad.status != 0 && bad.stderr.contains("give --database or --postgres, not both"), "\(bad.stderr)")
        let noRounds = try HeraldCLI.run(["bench", "serve", "--rounds", "0"])
        #expect(noRounds.status != 0 && noRounds.stderr.contains("--rounds must be at least 1"), "\(noRounds.stderr)")
        let streams = try HeraldCLI.run(["bench", "serve", "-m", "0"])
        #expect(streams.status != 0 && streams.stderr.contains("--connections and --streams must be at least 1"), "\(streams.stderr)")
        let url = try HeraldCLI.run(["bench", "serve", "--url", "ftp://x"])
        #expect(url.status != 0 && url.stderr.contains("--url must look like https://host:port or http://host:port"), "\(url.stderr)")
    }
}
