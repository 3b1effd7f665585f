import Foundation
import HeraldCore
import HeraldStore
import Testing

/// `herald serve` through an APNs outage: the path to the sandbox goes down for 10 seconds in
/// the middle of a 50,000-device broadcast. Nothing fails, nothing is lost, each device gets the
/// notification once, and `/ready` says why it is not ready while the path is down.
@Suite(.serialized) struct ServeOutageTests {
    static let devices = 50_000

    @Test func aBroadcastOutlastsTenSecondsWithoutAPNs() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-outage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sandbox = try await SandboxProcess.start(in: folder)
        defer { sandbox.process.stop() }
        let proxy = try await FaultProxy.start(to: sandbox.port)
        let database = folder.appendingPathComponent("herald.sqlite").path
        let server = try await ServeProcess.start([
            "--database", database, "--apns-url", "https://127.0.0.1:\(proxy.port)", "--apns-ca", sandbox.certificate,
        ])
        defer { server.process.stop() }
        let adminKey = try #require(server.adminKey)
        // 5,000 a second: about 10 s of broadcast, so the outage lands in its middle.
        let app = try await server.createApp(adminKey: adminKey, extra: #", "rateLimit": 5000"#)
        let tokens = (0..<Self.devices).map(testToken)
        try await ServeProcess.register(tokens, appID: app.id, in: SQLiteStore(path: database))

        let id = try await server.broadcast(key: app.key, title: "Outage", body: "once", audience: Self.devices)
        try await Task.sleep(for: .seconds(2))
        await proxy.down()
        let acceptedAtCut = try await sandbox.accepted()
        #expect(acceptedAtCut < Self.devices, "the outage came after the broadcast ended (\(acceptedAtCut) accepted)")

        // While APNs is unreachable: /ready is 503 and says why; deliveries wait, none fails.
        var sawNotReady = false
        var why = ""
        var pendingReport: JSONValue = .null
        let outageEnds = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < outageEnds {
            let ready = try await exchange(method: .GET, host: "127.0.0.1", port: server.port, path: "/ready", body: [])
            if ready.status == 503 {
                sawNotReady = true
                why = String(decoding: ready.body, as: UTF8.self)
            }
            pendingReport = try await server.report(id, key: app.key)
            try await Task.sleep(for: .milliseconds(500))
        }
        #expect(sawNotReady, "/ready never said 503 while APNs was unreachable")
        #expect(why.contains("APNs unreachable"), "\(why)")
        #expect(pendingReport["failed"]?.intValue == 0, "\(pendingReport)")
        proxy.up()

        let report = try await server.waitUntilDone(id, key: app.key, within: .seconds(180))
        #expect(report["sent"]?.intValue == Self.devices, "\(report)")
        #expect(report["failed"]?.intValue == 0, "\(report)")
        let ready = try await exchange(method: .GET, host: "127.0.0.1", port: server.port, path: "/ready", body: [])
        #expect(ready.status == 200, "\(String(decoding: ready.body, as: UTF8.self))")
        #expect(await server.process.terminate() == 0)
        await proxy.shutdown()

        let received = try await sandbox.received()
        let tally = DeliveryTally(received, tokens: tokens)
        #expect(tally.missing == 0, "\(tally.missing) devices got nothing")
        #expect(tally.duplicates == 0, "\(tally.duplicates) devices got it twice")
        print("outage test: \(acceptedAtCut) accepted before the cut, \(received.count) in all, \(tally.duplicates) twice; /ready said: \(why.prefix(300))")
    }
}
