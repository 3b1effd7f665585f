import Foundation
import HeraldCore
import Testing

/// `herald serve import` and `herald serve admin-key` against a running `herald serve`.
@Suite("herald serve import and admin-key")
struct ServeImportTests {
    @Test("an NDJSON file of 12,000 lines goes in batches with progress; bad lines are named by number and the rest stored; a CSV too")
    func importsAFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("herald.sqlite").path
        let node = try await ServeProcess.start(["--database", database, "--no-sandbox"])
        defer { node.process.stop() }
        let admin = try #require(node.adminKey)
        let app = try await node.createApp(adminKey: admin)

        var lines = (0..<12_000).map { #"{"token": "\#(testToken($0))", "environment": "production", "tags": ["t\#($0 % 3)"]}"# }
        lines[5] = #"{"token": "xyz", "environment": "production"}"#
        lines[10_500] = "not json"
        lines.insert("", at: 7)
        let ndjson = folder.appendingPathComponent("devices.ndjson")
        try lines.joined(separator: "\n").write(to: ndjson, atomically: true, encoding: .utf8)
        let url = "http://127.0.0.1:\(node.port)"
        let first = try HeraldCLI.run(["serve", "import", ndjson.path, "--url", url, "--key", app.key, "--batch", "5000"])
        #expect(first.status == 1, "\(first.stderr)")
        #expect(first.stderr.contains("line 6: token xyz"), "\(first.stderr)")
        #expect(first.stderr.contains("line 10502: not a JSON object"), "\(first.stderr)")
        #expect(first.stderr.contains("% of the file)"))
        #expect(first.stderr.contains("done: 11998 created, 0 updated, 2 refused"), "\(first.stderr)")
        let listed = try await node.call("GET", "/v1/devices?tag=t1&limit=1000", key: app.key)
        #expect(listed["devices"]?.arrayValue?.count == 1_000)

        let csv = folder.appendingPathComponent("devices.csv")
        try "token,environment,userId,tags\n\(testToken(1)),development,\"Li, Lei\",news;sports\n\(testToken(20_000)),production,,\n".write(to: csv, atomically: true, encoding: .utf8)
        let second = try HeraldCLI.run(["serve", "import", csv.path, "--url", url, "--key", app.key])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("done: 1 created, 1 updated, 0 refused"), "\(second.stderr)")
        let li = try await node.call("GET", "/v1/devices/\(testToken(1))", key: app.key)
        #expect(li["userId"]?.stringValue == "Li, Lei")
        #expect(li["tags"]?.arrayValue?.compactMap(\.stringValue) == ["news", "sports"])

        let badHeader = folder.appendingPathComponent("bad.csv")
        try "token,env\n".write(to: badHeader, atomically: true, encoding: .utf8)
        let refused = try HeraldCLI.run(["serve", "import", badHeader.path, "--url", url, "--key", app.key])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("unknown column 'env'"), "\(refused.stderr)")

        // The server goes away: the import stops and says where to go on from.
        #expect(await node.process.terminate() == 0)
        let stopped = try HeraldCLI.run(["serve", "import", ndjson.path, "--url", url, "--key", app.key, "--batch", "5000"])
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains("go on with: --from-line 1"), "\(stopped.stderr)")

        // A lost admin key: a new one is written to the store; --rotate revokes the others.
        let rotated = try HeraldCLI.run(["serve", "admin-key", "--rotate", "--database", database])
        #expect(rotated.status == 0, "\(rotated.stderr)")
        #expect(rotated.stdout.contains("Revoked 1 other admin key."))
        let prefix = "Admin key (shown once; keep it): "
        let secret = try #require(rotated.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
        let again = try await ServeProcess.start(["--database", database, "--no-sandbox"])
        defer { again.process.stop() }
        #expect(again.adminKey == nil)
        _ = try await again.call("GET", "/v1/apps", key: secret)
        _ = try await again.call("GET", "/v1/apps", key: admin, expect: 401)
        let missing = try HeraldCLI.run(["serve", "admin-key", "--database", folder.appendingPathComponent("none.sqlite").path])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("no database at"))
    }
    @Test("a batch the server answers 413 is sent in halves, and later batches as small; a device too large alone is refused by line")
    func splitsBatchesTooLargeForTheServer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let node = try await ServeProcess.start(["--database", folder.appendingPathComponent("herald.sqlite").path, "--no-sandbox", "--bulk-body-limit", "4096"])
        defer { node.process.stop() }
        let app = try await node.createApp(adminKey: try #require(node.adminKey))
        // About 100 bytes a line: 100 lines are about 10 KB, 25 about 2.5 KB.
        var lines = (0..<100).map { #"{"token": "\#(testToken($0))", "environment": "production", "tags": ["t\#($0 % 3)"]}"# }
        // A line of 5 KB (JSON allows the spaces): too large alone.
        lines[60] = #"{"token": "\#(testToken(60))", "environment": "production"\#(String(repeating: " ", count: 5_000))}"#
        let ndjson = folder.appendingPathComponent("devices.ndjson")
        try lines.joined(separator: "\n").write(to: ndjson, atomically: true, encoding: .utf8)
        let run = try HeraldCLI.run(["serve", "import", ndjson.path, "--url", "http://127.0.0.1:\(node.port)", "--key", app.key, "--batch", "100"])
        #expect(run.status == 1, "\(run.stderr)")
        // 100 in one call is refused, 50 and 50 too, then 25 at a time go in (the part holding
        // the large line is split down to it, without making later calls smaller).
        #expect(run.stderr.contains("sending 25 per call"), "\(run.stderr)")
        #expect(!run.stderr.contains("sending 12 per call") && !run.stderr.contains("sending 1 per call"), "\(run.stderr)")
        #expect(run.stderr.contains("line 61: too large for the server's body limit"), "\(run.stderr)")
        #expect(run.stderr.contains("done: 99 created, 0 updated, 1 refused"), "\(run.stderr)")
        let listed = try await node.call("GET", "/v1/devices?limit=1000", key: app.key)
        #expect(listed["devices"]?.arrayValue?.count == 99)
    }
}
