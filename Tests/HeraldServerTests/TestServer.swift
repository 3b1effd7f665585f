import Foundation
import HTTPTypes
import HeraldCore
import HeraldSandbox
import HeraldStore
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
@testable import HeraldServer

/// A server on a new SQLite file with a manual clock and an in-process sandbox, and helpers to
/// call its API through HummingbirdTesting's live client (real sockets).
struct TestServer {
    let server: HeraldServer
    let clock: ManualClock
    let admin: String
    /// The sandbox apps without credentials send to, as `herald serve` runs one in its process.
    let sandbox: Sandbox

    static func make(bodyLimit: Int = 1 << 20, start: Date = Date(), retention: RetentionPolicy = RetentionPolicy()) async throws -> TestServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try SQLiteStore(path: folder.appendingPathComponent("herald.sqlite").path)
        let clock = ManualClock(start)
        var logger = Logger(label: "herald.test")
        logger.logLevel = .warning
        let sandbox = try await Sandbox.startForAppServer(adminPort: nil, logger: logger)
        var configuration = ServerConfiguration(
            port: 0, bodyLimit: bodyLimit, pollInterval: .milliseconds(20), sandbox: .external(url: sandbox.url, certificate: sandbox.certificatePath),
            schedulerInterval: .seconds(3600), waitTimeout: .seconds(20), clock: clock, logger: logger
        )
        configuration.retention = retention
        configuration.sandboxAdministration = InProcessSandboxAdministration(sandbox: sandbox)
        let server = try await HeraldServer.start(store: store, configuration: configuration, closing: [{ try await sandbox.shutdown() }])
        let admin = try await server.bootstrapAdminKey()!
        return TestServer(server: server, clock: clock, admin: admin, sandbox: sandbox)
    }

    /// Runs `body` against the live server, then shuts everything down.
    func run(_ body: @escaping @Sendable (APIClient) async throws -> Void) async throws {
        do {
            try await server.application().test(.live) { client in try await body(APIClient(client: client)) }
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }
}

/// The in-process sandbox's admin API for the console, as `herald serve` wires it.
struct InProcessSandboxAdministration: SandboxAdministration {
    let sandbox: Sandbox

    func administer(method: String, uri: String, body: [UInt8]) async -> (status: Int, body: [UInt8]) {
        sandbox.administer(method: method, uri: uri, body: body)
    }
}

/// A JSON answer: its status and body.
struct APIAnswer: @unchecked Sendable {
    let status: Int
    let json: [String: Any]
    let text: String
    var headers = HTTPFields()

    subscript(key: String) -> Any? { json[key] }
    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    var errorMessage: String { ((json["error"] as? [String: Any])?["message"] as? String) ?? "" }
}

struct APIClient: Sendable {
    let client: any TestClientProtocol

    func call(_ method: HTTPRequest.Method, _ uri: String, key: String? = nil, json: Any? = nil, raw: String? = nil, headers: HTTPFields = [:])
        async throws -> APIAnswer
    {
        var fields = headers
        if let key { fields[.authorization] = "Bearer \(key)" }
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
            fields[.contentType] = "application/json"
        } else if let raw {
            body = ByteBuffer(string: raw)
        }
        return try await client.execute(uri: uri, method: method, headers: fields, body: body) { response in
            let text = String(buffer: response.body)
            let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
            return APIAnswer(status: Int(response.status.code), json: object, text: text, headers: response.headers)
        }
    }

    /// Creates an app; returns its id and API key.
    func createApp(admin: String, bundleID: String = "com.example.demo", extra: [String: Any] = [:]) async throws -> (id: String, key: String) {
        var body: [String: Any] = ["name": "Demo", "bundleId": bundleID]
        body.merge(extra) { $1 }
        let answer = try await call(.post, "/v1/apps", key: admin, json: body)
        guard answer.status == 201, let app = answer["app"] as? [String: Any], let key = answer["apiKey"] as? [String: Any] else {
            throw TestFailure("create app answered \(answer.status): \(answer.text)")
        }
        return (app["id"] as! String, key["secret"] as! String)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A 64-hex-digit token made from a number.
func token(_ number: Int) -> String {
    String(format: "%064x", number)
}
