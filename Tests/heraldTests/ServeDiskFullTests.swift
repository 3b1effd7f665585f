import Foundation
import HeraldCore
import HeraldStore
import Testing

/// `herald serve` on a SQLite file whose disk fills up in the middle of a broadcast (a small
/// tmpfs, filled to the last byte): sends that cannot be recorded stop at the send window,
/// `/ready` says why, new sends answer 503, and once space is back every device gets the
/// notification once and nothing stays pending. Needs root to mount the tmpfs (CI runs as root);
/// elsewhere it says so and does nothing.
@Suite(.serialized) struct ServeDiskFullTests {
    static let devices = 5_000

    static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Writes zeros to `path` until the disk is full.
    static func fill(_ path: String) -> Int {
        FileManager.default.createFile(atPath: path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: path) else { return 0 }
        defer { try? handle.close() }
        let chunk = Data(count: 16 * 1024)
        var written = 0
        while (try? handle.write(contentsOf: chunk)) != nil { written += chunk.count }
        // The last bytes of a partly written chunk.
        while (try? handle.write(contentsOf: Data(count: 512))) != nil { written += 512 }
        return written
    }

    @Test func aFullDiskMidBroadcastLosesNothingAndSaysWhy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-diskfull-\(UUID().uuidString)")
        let disk = folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard getuid() == 0, Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=12m", "tmpfs", disk.path]) == 0 else {
            print("disk-full test: not run (mounting a tmpfs needs root)")
            return
        }
        defer { _ = Self.run("/bin/umount", ["-l", disk.path]) }
        let sandbox = try await SandboxProcess.start(in: folder)
        defer { sandbox.process.stop() }
        let database = disk.appendingPathComponent("herald.sqlite").path
        let server = try await ServeProcess.start([
            "--database", database, "--apns-url", "https://127.0.0.1:\(sandbox.port)", "--apns-ca", sandbox.certificate,
        ])
        defer { server.process.stop() }
        let adminKey = try #require(server.adminKey)
        let app = try await server.createApp(adminKey: adminKey, extra: #", "rateLimit": 1000"#)
        let tokens = (0..<Self.devices).map(testToken)
        try await ServeProcess.register(tokens, appID: app.id, in: SQLiteStore(path: database))

        let id = try await server.broadcast(key: app.key, title: "Disk", body: "full", audience: Self.devices)
        try await Task.sleep(for: .milliseconds(1500))
        let filler = disk.appendingPathComponent("filler").path
        let filled = Self.fill(filler)

        // While the disk is full: /ready says 503 and why, a new send answers 503.
        var sawNotReady = false
        var why = ""
        let fullUntil = ContinuousClock.now + .seconds(8)
        while ContinuousClock.now < fullUntil {
            let ready = try await exchange(method: .GET, host: "127.0.0.1", port: server.port, path: "/ready", body: [])
            if ready.status == 503 {
                sawNotReady = true
                why = String(decoding: ready.body, as: UTF8.self)
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        let refused = try await exchange(
            method: .POST, host: "127.0.0.1", port: server.port, path: "/v1/notifications", headers: [("authorization", "Bearer \(app.key)")],
            body: Array(#"{"to": {"all": true}, "message": {"body": "while full"}}"#.utf8)
        )
        #expect(sawNotReady, "/ready never said 503 while the disk was full (\(filled) bytes of filler)")
        #expect(refused.status == 503, "\(refused.status): \(String(decoding: refused.body, as: UTF8.self))")
        try FileManager.default.removeItem(atPath: filler)

        let report = try await server.waitUntilDone(id, key: app.key)
        #expect(report["sent"]?.intValue == Self.devices && report["failed"]?.intValue == 0, "\(report)")
        #expect(await server.process.terminate() == 0)
        let received = try await sandbox.received().filter { $0.payload.contains("Disk") }
        let tally = DeliveryTally(received, tokens: tokens)
        #expect(tally.missing == 0, "\(tally.missing) devices got nothing")
        #expect(tally.duplicates == 0, "\(tally.duplicates) devices got it twice")
        print("disk-full test: \(filled) bytes filled the disk; /ready said: \(why.prefix(240)); a send while full answered \(refused.status); \(received.count) received, \(tally.duplicates) twice")
    }
}
