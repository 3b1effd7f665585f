import Foundation
import HeraldCore
import Testing

/// Random requests generated from `/openapi.json` by schemathesis, with a fixed seed, against a
/// running `herald serve`: no answer may be a 5xx, and the server must still serve afterwards.
/// `.ci/run` installs schemathesis (HERALD_SCHEMATHESIS); without it the test is skipped.
@Suite("API fuzz (schemathesis)")
struct APIFuzzTests {
    static let schemathesis: String? = {
        if let given = ProcessInfo.processInfo.environment["HERALD_SCHEMATHESIS"], FileManager.default.isExecutableFile(atPath: given) { return given }
        return nil
    }()

    @Test(
        "random requests from the OpenAPI document, with an app key and with the admin key, get no 5xx",
        .enabled(if: schemathesis != nil, "schemathesis is not installed: set HERALD_SCHEMATHESIS to its st (.ci/run installs it)")
    )
    func noServerErrors() async throws {
        let st = try #require(Self.schemathesis)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let node = try await ServeProcess.start(["--database", folder.appendingPathComponent("herald.sqlite").path])
        defer { node.process.stop() }
        let admin = try #require(node.adminKey)
        let app = try await node.createApp(adminKey: admin)
        // Some data for the generated requests to find.
        for index in 0..<3 {
            try await node.call("PUT", "/v1/devices/\(testToken(index))", key: app.key, body: #"{"environment": "development", "userId": "u1", "tags": ["news"]}"#, expect: 201)
        }
        try await node.call("POST", "/v1/notifications", key: app.key, body: #"{"to": {"all": true}, "message": {"title": "T", "body": "B"}}"#, expect: 202)

        let location = "http://127.0.0.1:\(node.port)/openapi.json"
        // The admin run leaves the admin key and the app in place, so it goes on testing with them.
        for (key, excluded) in [(app.key, [String]()), (admin, ["deleteAdminKey", "deleteApp"])] {
            let run = try ExternalProgram.run(st, [
                "run", location, "--checks", "not_a_server_error", "--seed", "1", "--max-examples", "15", "--workers", "1", "--max-time", "60",
                "--request-timeout", "10", "--suppress-health-check", "all", "--no-color", "--header", "Authorization: Bearer \(key)",
            ] + excluded.flatMap { ["--exclude-operation-id", $0] })
            #expect(run.status == 0, "schemathesis found problems:\n\(run.output.suffix(6_000))")
            #expect(run.output.contains("passed"), "\(run.output.suffix(2_000))")
        }
        // Still serving, and nothing failed inside.
        _ = try await node.call("GET", "/v1/apps", key: admin)
        #expect(!node.process.printed.contains("failed: "), "\(node.process.printed.suffix(3_000))")
    }
}
