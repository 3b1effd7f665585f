import HeraldHTTP1
import Foundation
import HeraldCore
import NIOCore
import NIOHTTP1
import NIOPosix

/// The device's link to a HeraldSandbox through its admin API: it registers app tokens (as
/// `registerForRemoteNotifications` does), goes offline and online, and listens to the event
/// stream of pushes delivered to a token.
public struct SandboxLink: Sendable {
    public var host: String
    public var port: Int

    /// `http://HOST:PORT` of the sandbox's admin API.
    public init(adminURL: URL) throws(DeviceError) {
        guard adminURL.scheme == "http", let host = adminURL.host, let port = adminURL.port else {
            throw .invalid("the sandbox admin URL must look like http://127.0.0.1:2198; it is \(adminURL.absoluteString)")
        }
        self.host = host
        self.port = port
    }

    /// Gets a token for an app in an environment (`development` or `production`). Returns the
    /// token as lowercase hex.
    public func register(bundleID: String, environment: String) async throws -> String {
        var body = JSONObject()
        body["topic"] = .string(bundleID)
        body["environment"] = .string(environment)
        let (status, answer) = try await HTTP1Exchange.send(method: .POST, host: host, port: port, path: "/devices", body: JSONValue.object(body).serialized)
        guard status == 201 || status == 200, let token = try? JSONParser().parse(answer).objectValue?["token"]?.stringValue else {
            throw DeviceError.invalid("the sandbox refused the registration (HTTP \(status)): \(String(decoding: answer, as: UTF8.self))")
        }
        return token
    }

    /// Goes online (the sandbox then delivers what it stored) or offline (it stores the latest).
    public func setOnline(_ online: Bool, token: String) async throws {
        let (status, answer) = try await HTTP1Exchange.send(method: .POST, host: host, port: port, path: "/devices/\(token)/\(online ? "online" : "offline")", body: [])
        guard status == 200 else {
            throw DeviceError.invalid("the sandbox refused to set \(token) \(online ? "online" : "offline") (HTTP \(status)): \(String(decoding: answer, as: UTF8.self))")
        }
    }

    /// The pushes delivered to `token` from now on, until the stream is dropped.
    public func pushes(token: String) async throws -> AsyncThrowingStream<IncomingPush, any Error> {
        try await EventStreamClient.connect(host: host, port: port, path: "/devices/\(token)/events")
    }

    /// Sends the token to the app's server as an app does at launch: `POST URL` with
    /// `{"token", "bundle_id", "environment"}`. Returns the HTTP status.
    public static func sendToken(_ token: String, bundleID: String, environment: String, to serverURL: URL) async throws -> Int {
        guard serverURL.scheme == "http", let host = serverURL.host else {
            throw DeviceError.invalid("the server URL must be http://HOST[:PORT]/PATH; it is \(serverURL.absoluteString)")
        }
        var body = JSONObject()
        body["token"] = .string(token)
        body["bundle_id"] = .string(bundleID)
        body["environment"] = .string(environment)
        let path = serverURL.path.isEmpty ? "/" : serverURL.path
        return try await HTTP1Exchange.send(method: .POST, host: host, port: serverURL.port ?? 80, path: path, body: JSONValue.object(body).serialized).status
    }
}
