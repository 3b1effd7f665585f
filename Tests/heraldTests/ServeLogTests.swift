import Foundation
import HeraldCore
import Testing

/// `herald serve --log-format json`: one JSON object per line; request lines carry the request
/// id (the caller's `X-Request-Id` or a new one, answered in the same header), the app and the
/// client's address; no key and no whole token is ever written.
@Suite("herald serve logs")
struct ServeLogTests {
    @Test("JSON lines with request_id, app and client; X-Request-Id answered; secrets and tokens never logged")
    func jsonLogs() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-logs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = try RunningHerald([
            "serve", "--port", "0", "--log-format", "json", "--database", folder.appendingPathComponent("herald.sqlite").path, "--no-sandbox",
        ])
        defer { process.stop() }
        let port = try await process.port(after: "herald serve listening on http://127.0.0.1:")
        let admin = try #require(process.printed.split(separator: "\n").first { $0.hasPrefix("Admin key (shown once; keep it): ") }
            .map { String($0.dropFirst("Admin key (shown once; keep it): ".count)) })
        let node = ServeProcess(process: process, port: port, adminKey: admin)
        let app = try await node.createApp(adminKey: admin)
        let token = testToken(7)
        let answer = try await exchange(
            method: .PUT, host: "127.0.0.1", port: port, path: "/v1/devices/\(token)",
            headers: [("authorization", "Bearer \(app.key)"), ("x-request-id", "trace-42")], body: Array(#"{"environment": "production"}"#.utf8)
        )
        #expect(answer.status == 201)
        let refused = try await exchange(
            method: .GET, host: "127.0.0.1", port: port, path: "/v1/devices/nonsense", headers: [("authorization", "Bearer \(app.key)"), ("x-request-id", "bad id with spaces")], body: []
        )
        let refusedBody = try JSONValue(parsing: refused.body)
        let generated = try #require(refusedBody["error"]?["requestId"]?.stringValue)
        #expect(generated.count == 32 && generated != "bad id with spaces")
        try await Task.sleep(for: .milliseconds(200))

        let lines = process.printed.split(separator: "\n").filter { $0.hasPrefix("{") }
        let objects = lines.compactMap { try? JSONValue(parsing: Array($0.utf8)) }
        #expect(objects.count == lines.count, "every line starting with { is JSON")
        let put = try #require(objects.first { $0["request_id"]?.stringValue == "trace-42" }, "\(process.printed)")
        #expect(put["level"]?.stringValue == "info")
        #expect(put["app"]?.stringValue == app.id)
        #expect(put["client"]?.stringValue?.hasPrefix("127.0.0.1:") == true)
        #expect(put["message"]?.stringValue == "PUT /v1/devices/\(try DeviceToken(parsing: token).redacted) 201", "\(put)")
        #expect(put["time"]?.stringValue?.hasSuffix("Z") == true)
        #expect(objects.contains { $0["request_id"]?.stringValue == generated })
        let logged = lines.joined(separator: "\n")
        #expect(!logged.contains(app.key))
        #expect(!logged.contains(admin.dropFirst(9)))
        #expect(!logged.contains(token))
    }
}
