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
