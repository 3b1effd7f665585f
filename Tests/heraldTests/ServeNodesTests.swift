import Foundation
import HeraldCore
import HeraldStore
import Testing

/// Two `herald serve` processes on one PostgreSQL database share the delivery queue: each
/// delivery is sent once while both live, and when one is killed the other takes over its leases.
/// Runs when HERALD_TEST_POSTGRES_URL names a database (`.ci/run` starts one).
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["HERALD_TEST_POSTGRES_URL"] != nil))
struct ServeNodesTests {
    static let devices = 10_000

    @Test func twoNodesDeliverEveryNotificationOnceAndSurviveTheLossOfOne() async throws {
        let base = try #require(ProcessInfo.processInfo.environment["HERALD_TEST_POSTGRES_URL"])
        let schema = "nodes_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let database = base + (base.contains("?") ? "&" : "?") + "schema=\(schema)"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-nodes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sandbox = try await SandboxProcess.start(in: folder)
        defer { sandbox.process.stop() }
        let arguments = [
            "--postgres", database, "--apns-url", "https://127.0.0.1:\(sandbox.port)", "--apns-ca", sandbox.certificate, "--lease", "10",
        ]
        let first = try await ServeProcess.start(arguments + ["--node-id", "node-a"])
        defer { first.process.stop() }
        let second = try await ServeProcess.start(arguments + ["--node-id", "node-b"])
        defer { second.process.stop() }
        let adminKey = try #require(first.adminKey)
        #expect(second.adminKey == nil)
        // Per node: together 2,000 a second, so a broadcast lasts long enough to kill a node in it,
        // even on a loaded machine.
        let app = try await first.createApp(adminKey: adminKey, extra: #", "rateLimit": 1000"#)
        let tokens = (0..<Self.devices).map(testToken)
        try await ServeProcess.register(tokens, appID: app.id, in: PostgresStore(url: database))
        // Both nodes see a registration made through either.
        try await second.call("PUT", "/v1/devices/ffff\(testToken(0).dropFirst(4))", key: app.key, body: #"{"environment": "development"}"#, expect: 201)
        #expect(try await first.call("GET", "/v1/devices/ffff\(testToken(0).dropFirst(4))", key: app.key)["state"]?.stringValue == "active")
        try await first.call("DELETE", "/v1/devices/ffff\(testToken(0).dropFirst(4))", key: app.key, expect: 204)

        // Both nodes live: every device once, and both nodes did part of the work.
        let one = try await broadcast("one", through: first, key: app.key)
        try await waitUntilDone(one, on: second, key: app.key)
        let firstSends = try await first.sendsTotal()
        let secondSends = try await second.sendsTotal()
        #expect(firstSends + secondSends == Self.devices)
        #expect(firstSends > 0 && secondSends > 0, "node-a sent \(firstSends), node-b \(secondSends)")
        let roundOne = try await sandbox.received().filter { $0.payload.contains("round one") }
        #expect(roundOne.count == Self.devices)
        #expect(Set(roundOne.map(\.token)) == Set(tokens))

        // One node killed in the middle: the other delivers everything.
        let two = try await broadcast("two", through: second, key: app.key)
        // Two nodes at 1,000 a second each: about 4.5 s. Killing after 1.5 s lands in the middle.
        try await Task.sleep(for: .milliseconds(1500))
        await second.process.kill()
        let acceptedAtKill = try await sandbox.accepted()
        #expect(acceptedAtKill < 2 * Self.devices, "node-b was killed after round two ended (\(acceptedAtKill) accepted)")
        let report = try await waitUntilDone(two, on: first, key: app.key)
        #expect(report["sent"]?.intValue == Self.devices && report["failed"]?.intValue == 0, "\(report)")
        let roundTwo = try await sandbox.received().filter { $0.payload.contains("round two") }
        let byToken = Dictionary(grouping: roundTwo, by: \.token)
        #expect(Set(byToken.keys) == Set(tokens), "\(Set(tokens).subtracting(byToken.keys).count) devices got nothing")
        var duplicates = 0
        for (token, notifications) in byToken where notifications.count > 1 {
            duplicates += notifications.count - 1
            #expect(Set(notifications.map(\.id)).count == 1, "\(token) got different apns-ids: \(notifications.map(\.id))")
        }
        #expect(duplicates <= 4 * 1000, "\(duplicates) duplicates")
        #expect(await first.process.terminate() == 0)
        print("two nodes: round one node-a \(firstSends) + node-b \(secondSends); round two \(roundTwo.count) received, \(duplicates) resent with the same apns-id")
    }

    private func broadcast(_ round: String, through node: ServeProcess, key: String) async throws -> String {
        let sent = try await node.call(
            "POST", "/v1/notifications", key: key, body: #"{"to": {"all": true}, "message": {"title": "Nodes", "body": "round \#(round)"}}"#,
            expect: 202
        )
        #expect(sent["audienceSize"]?.intValue == Self.devices)
        return try #require(sent["id"]?.stringValue)
    }

    @discardableResult
    private func waitUntilDone(_ id: String, on node: ServeProcess, key: String) async throws -> JSONValue {
        let deadline = ContinuousClock.now + .seconds(120)
        var report = try await node.report(id, key: key)
        while report["pending"]?.intValue != 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            report = try await node.report(id, key: key)
        }
        #expect(report["pending"]?.intValue == 0, "\(report)")
        return report
    }
}
