import Foundation
import Testing

/// `herald bench` against its in-process sandbox: it sends what it says and reports it.
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
}
