import Foundation
import HeraldCore
import HeraldHTTP1
import HeraldStore
import NIOCore
import NIOHTTP1

/// A `herald sandbox` process (auto-accepting tokens, no burst limit, keeping every delivery) and
/// `herald serve` processes sending to it: the parts of the process-level server tests.
struct SandboxProcess {
    let process: RunningHerald
    let port: Int
    let adminPort: Int
    let certificate: String

    static func start(in folder: URL) async throws -> SandboxProcess {
        let certificate = folder.appendingPathComponent("sandbox.pem").path
        let process = try RunningHerald([
            "sandbox", "--port", "0", "--admin-port", "0", "--auto-accept", "--burst-limit", "0", "--quiet", "--cert-out", certificate,
        ])
        do {
            let port = try await process.port(after: "listening on https://127.0.0.1:")
            let adminPort = try await process.port(after: "admin API: http://127.0.0.1:")
            return SandboxProcess(process: process, port: port, adminPort: adminPort, certificate: certificate)
        } catch {
            process.stop()  // not left running when it did not start as expected
            throw error
        }
    }

    /// One notification as the sandbox's admin API lists it.
    struct Received: Decodable {
        var id: String
        var token: String
        var payload: String
    }

    /// Notifications accepted so far (`GET /counters`, status 200): cheap to poll while a
    /// broadcast runs.
    func accepted() async throws -> Int {
        let answer = try await exchange(method: .GET, host: "127.0.0.1", port: adminPort, path: "/counters", body: [])
        guard answer.status == 200 else { throw RunningHerald.Failure("GET /counters answered \(answer.status)") }
        return try JSONValue(parsing: answer.body)["byStatus"]?["200"]?.intValue ?? 0
    }

    /// Everything every device received (`GET /notifications`).
    func received() async throws -> [Received] {
        let answer = try await exchange(method: .GET, host: "127.0.0.1", port: adminPort, path: "/notifications", body: [])
        guard answer.status == 200 else { throw RunningHerald.Failure("GET /notifications answered \(answer.status)") }
        return try JSONDecoder().decode([Received].self, from: Data(answer.body))
    }
}

/// A `herald serve` process and its API.
struct ServeProcess {
    let process: RunningHerald
    let port: Int
    /// The admin key, when this start created it.
    let adminKey: String?

    static func start(_ arguments: [String]) async throws -> ServeProcess {
        let process = try RunningHerald(["serve", "--port", "0", "--log-level", "warning"] + arguments)
        let port: Int
        do {
            port = try await process.port(after: "herald serve listening on http://127.0.0.1:")
        } catch {
            process.stop()  // not left running when it did not start as expected
            throw error
        }
        let adminKey = process.printed.split(separator: "\n").first { $0.hasPrefix("Admin key (shown once; keep it): ") }
            .map { String($0.dropFirst("Admin key (shown once; keep it): ".count)) }
        return ServeProcess(process: process, port: port, adminKey: adminKey)
    }

    /// Calls the API; throws unless the status is `expect`.
    @discardableResult
    func call(_ method: String, _ path: String, key: String, body: String = "", expect: Int = 200) async throws -> JSONValue {
        let answer = try await exchange(
            method: .init(rawValue: method), host: "127.0.0.1", port: port, path: path, headers: [("authorization", "Bearer \(key)")],
            body: Array(body.utf8)
        )
        guard answer.status == expect else {
            // A server error is explained in the server's log: its last lines go with the failure.
            let log = answer.status >= 500 ? "\nthe server's last lines:\n" + process.printed.split(separator: "\n").suffix(15).joined(separator: "\n") : ""
            throw RunningHerald.Failure("\(method) \(path) answered \(answer.status), not \(expect): \(String(decoding: answer.body, as: UTF8.self))\(log)")
        }
        return answer.body.isEmpty ? .null : try JSONValue(parsing: answer.body)
    }

    /// Creates an app (admin key) and returns its id and API key.
    func createApp(adminKey: String, extra: String = "") async throws -> (id: String, key: String) {
        let created = try await call(
            "POST", "/v1/apps", key: adminKey, body: #"{"name": "Test", "bundleId": "com.example.app"\#(extra)}"#, expect: 201
        )
        guard let id = created["app"]?["id"]?.stringValue, let key = created["apiKey"]?["secret"]?.stringValue else {
            throw RunningHerald.Failure("unexpected answer creating an app: \(created)")
        }
        return (id, key)
    }

    /// Registers many new devices of `appID` straight into the server's store, in one
    /// transaction. Through the API each would be a connection of its own, and tens of thousands
    /// of short connections at once (the process tests run side by side) exhaust loopback ports.
    static func register(_ tokens: [String], appID: String, in store: any HeraldStore) async throws {
        let now = Date()
        _ = try await store.upsertDevices(tokens.map { StoredDevice(appID: appID, token: $0, environment: .development, registeredAt: now) })
        try await store.close()
    }

    /// A notification's report (`GET /v1/notifications/{id}`): sent, failed, pending….
    func report(_ id: String, key: String) async throws -> JSONValue {
        try await call("GET", "/v1/notifications/\(id)", key: key)
    }

    /// The `herald_sends_total` samples of `/metrics`, summed.
    func sendsTotal() async throws -> Int {
        let answer = try await exchange(method: .GET, host: "127.0.0.1", port: port, path: "/metrics", body: [])
        return String(decoding: answer.body, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("herald_sends_total{") }
            .compactMap { Int($0.split(separator: " ").last ?? "") }
            .reduce(0, +)
    }
}

extension RunningHerald {
    /// The port printed right after `marker` (waiting for the line).
    func port(after marker: String) async throws -> Int {
        let line = try await line(containing: marker)
        guard let digits = line.components(separatedBy: marker).last?.prefix(while: \.isNumber), let port = Int(digits) else {
            throw Failure("no port after '\(marker)' in: \(line)")
        }
        return port
    }
}

/// The process tests' device tokens: 32 bytes, the first four counting up.
func testToken(_ index: Int) -> String {
    let digits = String(index, radix: 16)
    return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + String(repeating: "cd", count: 28)
}

/// One HTTP/1.1 exchange with a test's process. A connection that could not even be opened
/// within HTTP1Exchange's 10 s (seen when every suite runs at once on two cores) is tried again,
/// up to three times: the request was never sent, so nothing is sent twice.
func exchange(
    method: HTTPMethod, host: String, port: Int, path: String, headers: [(name: String, value: String)] = [], body: [UInt8]
) async throws -> (status: Int, body: [UInt8]) {
    var attempt = 1
    while true {
        do {
            return try await HTTP1Exchange.send(method: method, host: host, port: port, path: path, headers: headers, body: body)
        } catch ChannelError.connectTimeout where attempt < 3 {
            attempt += 1
        }
    }
}

extension ServeProcess {
    /// Sends `{"title", "body"}` to every device of the app (`{"to": {"all": true}}`), checks the
    /// audience is `audience` devices, and returns the notification's id.
    func broadcast(key: String, title: String, body: String, audience: Int) async throws -> String {
        let sent = try await call(
            "POST", "/v1/notifications", key: key,
            body: #"{"to": {"all": true}, "message": {"title": "\#(title)", "body": "\#(body)"}}"#, expect: 202
        )
        guard sent["audienceSize"]?.intValue == audience, let id = sent["id"]?.stringValue else {
            throw RunningHerald.Failure("the broadcast was not accepted for \(audience) devices: \(sent)")
        }
        return id
    }

    /// A notification's report once nothing is pending, or as it is after `within`.
    func waitUntilDone(_ id: String, key: String, within: Duration = .seconds(120)) async throws -> JSONValue {
        let deadline = ContinuousClock.now + within
        var report = try await report(id, key: key)
        while (report["pending"]?.intValue != 0 || report["status"]?.stringValue == "sending") && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            report = try await self.report(id, key: key)
        }
        return report
    }
}

/// What a broadcast came to at the sandbox: devices that got nothing, extra copies, and devices
/// whose copies carried different apns-ids (a resend must carry the first one's).
struct DeliveryTally {
    let missing: Int
    let duplicates: Int
    let differentIDs: [String]

    init(_ received: [SandboxProcess.Received], tokens: [String]) {
        let byToken = Dictionary(grouping: received, by: \.token)
        missing = Set(tokens).subtracting(byToken.keys).count
        duplicates = byToken.values.reduce(0) { $0 + $1.count - 1 }
        differentIDs = byToken.filter { Set($0.value.map(\.id)).count > 1 }.map(\.key)
    }
}
