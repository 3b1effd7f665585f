import Foundation
import HeraldCore
import HeraldStore
import Testing

/// `herald serve` as a process that crashes: killed with SIGKILL in the middle of a broadcast,
/// started again on the same database, it delivers the rest. Deliveries in flight at the kill may
/// be sent twice, always with the same apns-id; no device is left out.
@Suite(.serialized) struct ServeCrashTests {
    static let devices = 10_000
    /// The server's APNs connections × streams per connection: at most this many deliveries are
    /// sent and not yet answered (outcomes are recorded as they are answered, within milliseconds).
    static let inFlightWindow = 4 * 100

    @Test func aServerKilledMidBroadcastResumesAndEveryDeviceGetsItOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sandbox = try await SandboxProcess.start(in: folder)
        defer { sandbox.process.stop() }
        let arguments = [
            "--database", folder.appendingPathComponent("herald.sqlite").path, "--apns-url", "https://127.0.0.1:\(sandbox.port)",
            "--apns-ca", sandbox.certificate, "--lease", "10",
        ]
        var server = try await ServeProcess.start(arguments)
        defer { server.process.stop() }
        // A second server on the same file would send the same rows (SQLite leases live in the
        // process): it refuses to start. (It is given the first one's port, so that without
        // the lock it would still stop, on the port, and not be left running. After the SIGKILL
        // below the lock is free again.)
        let second = try HeraldCLI.run(["serve", "--port", "\(server.port)"] + arguments)
        #expect(second.status != 0 && second.stderr.contains("another process is delivering from this SQLite database"), "\(second.stderr)")
        // The same through a symbolic link to the file: the lock is on the file, not the path.
        let link = folder.appendingPathComponent("link-to-herald.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.appendingPathComponent("herald.sqlite").path)
        var throughLink = arguments
        throughLink[1] = link
        let third = try HeraldCLI.run(["serve", "--port", "\(server.port)"] + throughLink)
        #expect(third.status != 0 && third.stderr.contains("another process is delivering from this SQLite database"), "\(third.stderr)")
        let adminKey = try #require(server.adminKey)
        // A rate limit makes the broadcast take a few seconds, so the kill lands in its middle.
        let app = try await server.createApp(adminKey: adminKey, extra: #", "rateLimit": 1000"#)
        let tokens = (0..<Self.devices).map(testToken)
        try await ServeProcess.register(tokens, appID: app.id, in: SQLiteStore(path: folder.appendingPathComponent("herald.sqlite").path))

        let id = try await server.broadcast(key: app.key, title: "Crash test", body: "once", audience: Self.devices)
        // At 1,000 a second the broadcast lasts about 9 s: killing after 3 s lands in its middle
        // without asking anything of the processes (a loaded machine can stall a poll for seconds).
        try await Task.sleep(for: .seconds(3))
        await server.process.kill()
        let receivedAtKill = try await sandbox.received().count
        #expect(receivedAtKill < Self.devices, "the kill came after the broadcast ended (\(receivedAtKill) received)")

        server = try await ServeProcess.start(arguments)
        #expect(server.adminKey == nil)
        let report = try await server.waitUntilDone(id, key: app.key)
        #expect(report["sent"]?.intValue == Self.devices, "\(report)")
        #expect(report["failed"]?.intValue == 0, "\(report)")
        #expect(await server.process.terminate() == 0)

        let received = try await sandbox.received()
        let tally = DeliveryTally(received, tokens: tokens)
        #expect(tally.missing == 0, "\(tally.missing) devices got nothing")
        #expect(tally.differentIDs.isEmpty, "\(tally.differentIDs.count) devices got different apns-ids")
        #expect(tally.duplicates <= Self.inFlightWindow, "\(tally.duplicates) duplicates")
        print("crash test: \(receivedAtKill) received before SIGKILL, \(received.count) in all, \(tally.duplicates) resent with the same apns-id")
    }
}
