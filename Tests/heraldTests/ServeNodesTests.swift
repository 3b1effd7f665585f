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
            "--postgres", database, "--apns-url", "https://127.0.0.1:\(sandbox.port)", "--apns-ca", sandbox.certificate, "--lease", "3",
        ]
        let first = try await ServeProcess.start(arguments + ["--node-id", "node-a"])
        defer { first.process.stop() }
        let second = try await ServeProcess.start(arguments + ["--node-id", "node-b"])
        defer { second.process.stop() }
        let adminKey = try #require(first.adminKey)
        #expect(second.adminKey == nil)
        // 2,500 a second for the two nodes together (the limit is shared through PostgreSQL), so
        // a broadcast lasts about 3 s, long enough to kill a node in it.
        let app = try await first.createApp(adminKey: adminKey, extra: #", "rateLimit": 2500"#)
        let tokens = (0..<Self.devices).map(testToken)
        try await ServeProcess.register(tokens, appID: app.id, in: PostgresStore(url: database))
        // Both nodes see a registration made through either.
        try await second.call("PUT", "/v1/devices/ffff\(testToken(0).dropFirst(4))", key: app.key, body: #"{"environment": "development"}"#, expect: 201)
        #expect(try await first.call("GET", "/v1/devices/ffff\(testToken(0).dropFirst(4))", key: app.key)["state"]?.stringValue == "active")
        try await first.call("DELETE", "/v1/devices/ffff\(testToken(0).dropFirst(4))", key: app.key, expect: 204)

        // Both nodes live: every device once, and both nodes did part of the work.
        let roundOneStarted = ContinuousClock.now
        let one = try await broadcast("one", through: first, key: app.key)
        try await waitUntilDone(one, on: second, key: app.key)
        // A one-second burst of 2,500, then 7,500 at 2,500 a second: at least 3 s for the two
        // nodes together (with a limit per node they would take half as long).
        let roundOneTook = ContinuousClock.now - roundOneStarted
        #expect(roundOneTook >= .milliseconds(2900), "10,000 at 2,500/s across two nodes took \(roundOneTook)")
        let firstSends = try await first.sendsTotal()
        let secondSends = try await second.sendsTotal()
        #expect(firstSends + secondSends == Self.devices)
        #expect(firstSends > 0 && secondSends > 0, "node-a sent \(firstSends), node-b \(secondSends)")
        let roundOne = try await sandbox.received().filter { $0.payload.contains("round one") }
        #expect(roundOne.count == Self.devices)
        #expect(Set(tokens).subtracting(roundOne.map(\.token)).isEmpty, "\(Set(tokens).subtracting(roundOne.map(\.token)).count) devices got nothing")

        // One node killed in the middle: the other delivers everything.
        let two = try await broadcast("two", through: second, key: app.key)
        // 2,500 a second: about 3 s after the one-second burst. Killing after 1.2 s lands in the middle.
        try await Task.sleep(for: .milliseconds(1200))
        await second.process.kill()
        let killedAt = ContinuousClock.now
        let acceptedAtKill = try await sandbox.accepted()
        #expect(acceptedAtKill < 2 * Self.devices, "node-b was killed after round two ended (\(acceptedAtKill) accepted)")
        let report = try await waitUntilDone(two, on: first, key: app.key)
        // node-b's leases (3 s, no longer renewed) end and node-a takes its rows over.
        let takeover = ContinuousClock.now - killedAt
        #expect(takeover < .seconds(10), "node-a finished \(takeover) after the kill")
        #expect(report["sent"]?.intValue == Self.devices && report["failed"]?.intValue == 0, "\(report)")
        let roundTwo = try await sandbox.received().filter { $0.payload.contains("round two") }
        let tally = DeliveryTally(roundTwo, tokens: tokens)
        #expect(tally.missing == 0, "\(tally.missing) devices got nothing")
        #expect(tally.differentIDs.isEmpty, "\(tally.differentIDs.count) devices got different apns-ids")
        // At most what node-b had sent and not yet recorded: its connections × streams.
        #expect(tally.duplicates <= 4 * 100, "\(tally.duplicates) duplicates")
        #expect(await first.process.terminate() == 0)
        print("two nodes: round one node-a \(firstSends) + node-b \(secondSends) in \(roundOneTook); round two \(roundTwo.count) received, \(tally.duplicates) resent with the same apns-id, node-a done \(takeover) after the kill")
    }

    @Test func aStoreOutageMidBroadcastLosesNothingAndTheAPIAnswers503() async throws {
        let base = try #require(ProcessInfo.processInfo.environment["HERALD_TEST_POSTGRES_URL"])
        var components = try #require(URLComponents(string: base))
        let proxy = try await FaultProxy.start(to: try #require(components.port))
        components.port = proxy.port
        let schema = "outage_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let direct = base + (base.contains("?") ? "&" : "?") + "schema=\(schema)"
        let throughProxy = try #require(components.string) + (base.contains("?") ? "&" : "?") + "schema=\(schema)"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-pg-outage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sandbox = try await SandboxProcess.start(in: folder)
        defer { sandbox.process.stop() }
        let node = try await ServeProcess.start([
            "--postgres", throughProxy, "--apns-url", "https://127.0.0.1:\(sandbox.port)", "--apns-ca", sandbox.certificate, "--lease", "3",
        ])
        defer { node.process.stop() }
        let adminKey = try #require(node.adminKey)
        let app = try await node.createApp(adminKey: adminKey, extra: #", "rateLimit": 2000"#)
        let tokens = (0..<Self.devices).map(testToken)
        try await ServeProcess.register(tokens, appID: app.id, in: PostgresStore(url: direct))
        let id = try await broadcast("outage", through: node, key: app.key)
        try await Task.sleep(for: .seconds(1))

        await proxy.down()
        // The store is unreachable: API calls answer 503 within the store timeout (5 s), /ready
        // says why at once, /metrics still answers.
        let started = ContinuousClock.now
        let call = try await exchange(
            method: .GET, host: "127.0.0.1", port: node.port, path: "/v1/notifications/\(id)", headers: [("authorization", "Bearer \(app.key)")], body: []
        )
        let waited = ContinuousClock.now - started
        #expect(call.status == 503, "\(call.status) \(String(decoding: call.body, as: UTF8.self))")
        #expect(String(decoding: call.body, as: UTF8.self).contains("store_unavailable"))
        #expect(waited < .seconds(8), "the API call took \(waited)")
        // A write in a transaction (registering a device) says the same, not 500.
        let write = try await exchange(
            method: .PUT, host: "127.0.0.1", port: node.port, path: "/v1/devices/\(testToken(Self.devices + 1))",
            headers: [("authorization", "Bearer \(app.key)"), ("content-type", "application/json")], body: Array(#"{"environment": "development"}"#.utf8)
        )
        #expect(write.status == 503, "\(write.status) \(String(decoding: write.body, as: UTF8.self))")
        try await Task.sleep(for: .seconds(2))
        // Readiness fails with the reason; liveness stays 200 (the process works) and says degraded.
        let ready = try await exchange(method: .GET, host: "127.0.0.1", port: node.port, path: "/ready", body: [])
        #expect(ready.status == 503 && String(decoding: ready.body, as: UTF8.self).contains("store"), "\(String(decoding: ready.body, as: UTF8.self))")
        let health = try await exchange(method: .GET, host: "127.0.0.1", port: node.port, path: "/health", body: [])
        #expect(health.status == 200 && String(decoding: health.body, as: UTF8.self).contains("degraded"), "\(String(decoding: health.body, as: UTF8.self))")
        let metrics = try await exchange(method: .GET, host: "127.0.0.1", port: node.port, path: "/metrics", body: [])
        #expect(metrics.status == 200 && String(decoding: metrics.body, as: UTF8.self).contains("herald_store_up 0"))
        try await Task.sleep(for: .seconds(3))
        proxy.up()

        let report = try await waitUntilDone(id, on: node, key: app.key)
        #expect(report["sent"]?.intValue == Self.devices && report["failed"]?.intValue == 0, "\(report)")
        let received = try await sandbox.received()
        let tally = DeliveryTally(received, tokens: tokens)
        #expect(tally.missing == 0, "\(tally.missing) devices got nothing")
        #expect(tally.duplicates <= 4 * 100, "\(tally.duplicates) duplicates")
        let status = await node.process.terminate()
        #expect(status == 0, "the node exited with \(status):\n\(node.process.printed.suffix(15000))")
        await proxy.shutdown()
        print("store outage: API answered \(call.status) after \(waited); \(received.count) received, \(tally.duplicates) twice")
    }

    /// A node whose lease renewals reach PostgreSQL late (a lock wait, a slow disk) can lose its
    /// rows to the other node when their leases end before the renewal lands. It must then stop
    /// sending them, not go on as if the late renewal had kept them: each device gets one copy.
    @Test func aNodeWhoseRenewalsLandLateSendsNothingTwice() async throws {
        try await withProxiedNodes("late") { proxy, sandbox, first, second, direct in
            let adminKey = try #require(first.adminKey)
            // 1,000 a second for both nodes: a batch of 1,000 takes seconds, so its lease needs renewing.
            let app = try await first.createApp(adminKey: adminKey, extra: #", "rateLimit": 1000"#)
            let tokens = (0..<Self.devices).map(testToken)
            try await ServeProcess.register(tokens, appID: app.id, in: PostgresStore(url: direct))
            // node-a's renewals land 1.6 s after they are sent: past the end of a 3 s lease renewed
            // every 0.75 s once the previous renewal came back.
            proxy.slow(requestsContaining: "SET lease_until = $3", by: .milliseconds(1600))

            let id = try await broadcast("late", through: second, key: app.key)
            let report = try await waitUntilDone(id, on: second, key: app.key)
            #expect(report["sent"]?.intValue == Self.devices && report["failed"]?.intValue == 0, "\(report)")
            let received = try await sandbox.received()
            let tally = DeliveryTally(received, tokens: tokens)
            let firstSends = try await first.sendsTotal()
            let secondSends = try await second.sendsTotal()
            #expect(tally.missing == 0, "\(tally.missing) devices got nothing")
            #expect(tally.duplicates == 0, "\(tally.duplicates) devices got a second copy (node-a sent \(firstSends), node-b \(secondSends))")
            #expect(await first.process.terminate() == 0)
            #expect(await second.process.terminate() == 0)
            print("late renewals: node-a sent \(firstSends), node-b \(secondSends); \(received.count) received, \(tally.duplicates) twice")
        }
    }

    @Test func aFanOutItsNodeLeftMidWayIsFinishedByAnother() async throws {
        try await withProxiedNodes("fan") { proxy, sandbox, first, second, direct in
            let adminKey = try #require(first.adminKey)
            let app = try await first.createApp(adminKey: adminKey)
            let tokens = (0..<Self.devices).map(testToken)
            try await ServeProcess.register(tokens, appID: app.id, in: PostgresStore(url: direct))
            // node-a's fan-out stops after its first chunk (the chunk's last statement is held back),
            // and node-a is killed there: the chunk is rolled back with its connection.
            proxy.slow(requestsContaining: "SET fanout_after = $2", by: .seconds(120))
            let posting = Task { try? await first.broadcast(key: app.key, title: "Nodes", body: "round left", audience: Self.devices) }
            var id: String?
            let deadline = ContinuousClock.now + .seconds(20)
            while id == nil && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                id = try await second.call("GET", "/v1/notifications", key: app.key)["notifications"]?.arrayValue?.first?["id"]?.stringValue
            }
            let notification = try #require(id, "the notification was not stored")
            try await Task.sleep(for: .milliseconds(500))
            await first.process.kill()
            posting.cancel()
            let killedAt = ContinuousClock.now
            let report = try await waitUntilDone(notification, on: second, key: app.key)
            let took = ContinuousClock.now - killedAt
            #expect(report["sent"]?.intValue == Self.devices && report["failed"]?.intValue == 0, "\(report)")
            #expect(try await second.call("GET", "/v1/notifications/\(notification)", key: app.key)["audienceSize"]?.intValue == Self.devices)
            let tally = DeliveryTally(try await sandbox.received(), tokens: tokens)
            #expect(tally.missing == 0, "\(tally.missing) devices got nothing")
            #expect(tally.duplicates == 0, "\(tally.duplicates) devices got a second copy")
            // Stalled for a lease (3 s), looked for every half lease.
            #expect(took < .seconds(20), "node-b finished the fan-out \(took) after the kill")
            #expect(await second.process.terminate() == 0)
            print("fan-out left mid-way: node-b queued and sent all \(Self.devices) \(took) after node-a was killed; \(tally.duplicates) twice")
        }
    }

    @Test func startingWithoutTheStoreWarnsAndGivesUp() async throws {
        // A port nothing listens on.
        let proxy = try await FaultProxy.start(to: 9)
        await proxy.down()
        defer { Task { await proxy.shutdown() } }
        let started = ContinuousClock.now
        let result = try HeraldCLI.run([
            "serve", "--port", "0", "--postgres", "postgres://herald@127.0.0.1:\(proxy.port)/herald", "--startup-timeout", "3", "--no-sandbox",
        ])
        let took = ContinuousClock.now - started
        #expect(result.status != 0)
        #expect(result.stderr.contains("could not be reached"), "\(result.stderr)")
        #expect(took < .seconds(20), "gave up after \(took)")
    }

    /// Runs `body` with two nodes on a new schema, each with a 3 s lease and sending to one
    /// sandbox: node-a reaches PostgreSQL through a FaultProxy, in the clear so that the proxy
    /// sees which statement goes by; node-b directly (`direct`, also for registering devices).
    private func withProxiedNodes(
        _ name: String, _ body: (FaultProxy, SandboxProcess, ServeProcess, ServeProcess, String) async throws -> Void
    ) async throws {
        let base = try #require(ProcessInfo.processInfo.environment["HERALD_TEST_POSTGRES_URL"])
        var components = try #require(URLComponents(string: base))
        let proxy = try await FaultProxy.start(to: try #require(components.port))
        components.port = proxy.port
        let schema = name + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let direct = base + (base.contains("?") ? "&" : "?") + "schema=\(schema)"
        // In the clear, so that the proxy sees which statement goes by.
        let throughProxy = try #require(components.string) + (base.contains("?") ? "&" : "?") + "schema=\(schema)&sslmode=disable"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sandbox = try await SandboxProcess.start(in: folder)
        defer { sandbox.process.stop() }
        let arguments = ["--apns-url", "https://127.0.0.1:\(sandbox.port)", "--apns-ca", sandbox.certificate, "--lease", "3"]
        let first = try await ServeProcess.start(arguments + ["--postgres", throughProxy, "--node-id", "node-a"])
        defer { first.process.stop() }
        let second = try await ServeProcess.start(arguments + ["--postgres", direct, "--node-id", "node-b"])
        defer { second.process.stop() }
        do {
            try await body(proxy, sandbox, first, second, direct)
        } catch {
            await proxy.shutdown()
            throw error
        }
        await proxy.shutdown()
    }

    private func broadcast(_ round: String, through node: ServeProcess, key: String) async throws -> String {
        try await node.broadcast(key: key, title: "Nodes", body: "round \(round)", audience: Self.devices)
    }

    @discardableResult
    private func waitUntilDone(_ id: String, on node: ServeProcess, key: String) async throws -> JSONValue {
        let report = try await node.waitUntilDone(id, key: key)
        #expect(report["pending"]?.intValue == 0, "\(report)")
        return report
    }
}
