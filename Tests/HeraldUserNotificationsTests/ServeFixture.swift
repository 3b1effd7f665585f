import Foundation
import HeraldSandbox
import HeraldCore
import HeraldHTTP1
import HeraldServer
import HeraldStore
import NIOHTTP1
import ServiceLifecycle
import Synchronization

/// `herald serve` in this process: a fresh SQLite file, its in-process sandbox, an app for a
/// bundle id, and calls to its JSON API.
final class ServeFixture: Sendable {
    let server: HeraldServer
    let port: Int
    let appKey: String
    let folder: URL
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// The server's sandbox (as `herald serve` runs one in its process).
    let sandbox: Sandbox
    var sandboxAdminURL: URL { URL(string: "http://127.0.0.1:\(sandbox.adminPort!)")! }
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(server: HeraldServer, sandbox: Sandbox, port: Int, appKey: String, folder: URL, group: ServiceGroup, running: Task<Void, any Error>) {
        self.server = server
        self.sandbox = sandbox
        self.group = group
        self.port = port
        self.appKey = appKey
        self.folder = folder
        self.running = running
    }

    static func start(bundleID: String) async throws -> ServeFixture {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-serve-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try SQLiteStore(path: folder.appendingPathComponent("herald.sqlite").path)
        var configuration = ServerConfiguration(port: 0, pollInterval: .milliseconds(20))
        configuration.logger.logLevel = .warning
        let sandbox = try await Sandbox.startForAppServer(adminPort: 0, logger: configuration.logger)
        configuration.sandbox = .external(url: sandbox.url, certificate: sandbox.certificatePath)
        let server = try await HeraldServer.start(store: store, configuration: configuration, closing: [{ try await sandbox.shutdown() }])
        guard let admin = try await server.bootstrapAdminKey() else { throw Failure("a fresh store already has an admin key") }
        let port = Mutex<Int?>(nil)
        let group = ServiceGroup(services: [try server.application { bound in port.withLock { $0 = bound } }], logger: configuration.logger)
        let running = Task { try await group.run() }
        let deadline = ContinuousClock.now + .seconds(10)
        while port.withLock({ $0 }) == nil {
            guard ContinuousClock.now < deadline else { throw Failure("herald serve did not start listening within 10 s") }
            try await Task.sleep(for: .milliseconds(10))
        }
        let bound = port.withLock { $0 }!
        let (status, answer) = try await HTTP1Exchange.send(
            method: .POST, host: "127.0.0.1", port: bound, path: "/v1/apps", headers: [("authorization", "Bearer \(admin)")],
            body: Array(#"{"name": "Test", "bundleId": "\#(bundleID)"}"#.utf8)
        )
        guard status == 201 || status == 200, let key = try JSONParser().parse(answer)["apiKey"]?["secret"]?.stringValue else {
            throw Failure("creating the app answered \(status): \(String(decoding: answer, as: UTF8.self))")
        }
        return ServeFixture(server: server, sandbox: sandbox, port: bound, appKey: key, folder: folder, group: group, running: running)
    }

    /// Calls the API with the app's key; returns the status and the JSON answer.
    func call(_ method: String, _ path: String, body: String = "") async throws -> (status: Int, json: JSONValue?) {
        let (status, answer) = try await HTTP1Exchange.send(
            method: .init(rawValue: method), host: "127.0.0.1", port: port, path: path,
            headers: [("authorization", "Bearer \(appKey)")], body: Array(body.utf8)
        )
        return (status, try? JSONParser().parse(answer))
    }

    /// Registers a token for a user, as the app would.
    func register(_ token: String, user: String) async throws {
        let (status, json) = try await call("PUT", "/v1/devices/\(token)", body: #"{"environment": "development", "userId": "\#(user)"}"#)
        guard status == 200 || status == 201 else { throw Failure("registering the token answered \(status): \(String(describing: json))") }
    }

    /// Sends to a user and waits for the report; returns how many were sent.
    func send(toUser user: String, _ content: String) async throws -> Int {
        let (status, json) = try await call("POST", "/v1/notifications?wait=true", body: #"{"to": {"users": ["\#(user)"]}, "# + content + "}")
        guard status == 200 || status == 201 else { throw Failure("sending answered \(status): \(String(describing: json))") }
        return json?["report"]?["sent"]?.intValue ?? 0
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await running.result
        try? await server.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
