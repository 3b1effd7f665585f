import ArgumentParser
import Foundation
import HeraldAPNs
import HeraldCore
import HeraldHTTP1
import HeraldServer
import HeraldStore
import Logging
import ServiceLifecycle

/// `herald bench serve`: how fast the App Server broadcasts — one `POST /v1/notifications` to
/// every registered device, through the workers and HeraldAPNs to a sandbox — against the raw
/// client sending the same notifications to the same sandbox.
struct ServeBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Measure the App Server: a broadcast to N registered devices, against the raw client's rate.",
        discussion: """
            It registers --devices tokens in a new store (SQLite in a temporary folder unless \
            --database or --postgres is given), starts the App Server in this process with its \
            API on a free port, and times `POST /v1/notifications {"to": {"all": true}}` until \
            every delivery is recorded. Before it (unless --no-baseline), the raw client sends \
            the same number of notifications to the same sandbox, so the ratio compares like \
            with like. Peak memory is the process's peak resident size during the broadcast. \
            With --url the notifications go to a separately started `herald sandbox` (its \
            memory is then not counted here).
            """
    )

    @Option(name: [.customShort("n"), .customLong("devices")], help: "Registered devices (the broadcast's audience).")
    var devices = 100_000

    @Option(help: "SQLite file to use (default: a new one in a temporary folder, removed afterwards).")
    var database: String?

    @Option(help: "PostgreSQL URL instead of SQLite (the bench adds its own app; use a throw-away database).")
    var postgres: String?

    @Option(help: "The server's delivery workers (batches in flight).")
    var workers = 4

    @Option(help: "Deliveries per batch.")
    var batchSize = 1000

    @OptionGroup var options: BenchTargetOptions

    @Flag(help: "Skip the raw client's run.")
    var noBaseline = false

    @Flag(help: "Print the figures as JSON.")
    var json = false

    func validate() throws {
        if devices < 1 || workers < 1 || batchSize < 1 {
            throw ValidationError("--devices, --workers and --batch-size must be at least 1")
        }
        if database != nil && postgres != nil { throw ValidationError("give --database or --postgres, not both") }
    }

    func run() async throws {
        let target = try await BenchTarget.start(options, command: "bench serve")
        do {
            let report = try await measure(target)
            try await target.shutdown()
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                say(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                say(report.text)
            }
            if report.failed > 0 || report.delivered != devices { throw ExitCode(1) }
        } catch {
            try? await target.shutdown()
            throw error
        }
    }

    private func measure(_ target: BenchTarget) async throws -> ServeBenchReport {
        let baseline = noBaseline ? nil : try await baselineRate(target)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bench-\(UUID().uuidString)")
        let store: any HeraldStore
        let storeName: String
        if let postgres {
            store = try PostgresStore(url: postgres, logger: Logger(label: "herald.bench.store"))
            storeName = "PostgreSQL"
        } else {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = database ?? folder.appendingPathComponent("herald.sqlite").path
            store = try SQLiteStore(path: path)
            storeName = "SQLite (\(path))"
        }
        defer { try? FileManager.default.removeItem(at: folder) }

        var logger = Logger(label: "herald.bench.serve")
        logger.logLevel = .error
        let configuration = ServerConfiguration(
            port: 0, workers: workers, batchSize: batchSize, pollInterval: .milliseconds(20), apnsConnections: options.connections,
            apnsStreams: options.streams, sandbox: .external(url: target.url, certificate: target.certificate), logger: logger
        )
        let server = try await HeraldServer.start(store: store, configuration: configuration)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let services = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [server.application { port in portContinuation.yield(port) }], logger: logger
        ))
        let serving = Task { try await services.run() }
        defer { serving.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CommandError("the App Server did not start").exit(command: "bench serve") }
        let api = BenchAPI(port: port)

        guard let admin = try await server.bootstrapAdminKey() else {
            throw CommandError("the store already has an admin key; give the bench a new database").exit(command: "bench serve")
        }
        let created = try await api.call("POST", "/v1/apps", key: admin, body: #"{"name": "Bench", "bundleId": "com.example.app"}"#)
        guard let appID = created["app"]?["id"]?.stringValue, let appKey = created["apiKey"]?["secret"]?.stringValue else {
            throw CommandError("unexpected answer creating the app: \(created)").exit(command: "bench serve")
        }

        let registrationStart = ContinuousClock.now
        let now = Date()
        for chunk in stride(from: 0, to: devices, by: 10_000) {
            _ = try await store.upsertDevices((chunk..<min(chunk + 10_000, devices)).map { index in
                StoredDevice(appID: appID, token: BenchTarget.hexToken(index), environment: .development, registeredAt: now)
            })
        }
        let registration = (ContinuousClock.now - registrationStart).inSeconds

        ServeBenchReport.resetPeakMemory()
        let start = ContinuousClock.now
        let payload = String(decoding: ClientBenchCommand.defaultPayload.utf8, as: UTF8.self)
        let sent = try await api.call("POST", "/v1/notifications", key: appKey, body: #"{"to": {"all": true}, "payload": \#(payload)}"#)
        guard let notificationID = sent["id"]?.stringValue else {
            throw CommandError("unexpected answer sending: \(sent)").exit(command: "bench serve")
        }
        let accepted = (ContinuousClock.now - start).inSeconds
        // Watching the server's counter costs nothing; counting rows in the store while it works
        // would take CPU from it. The store is asked once the counter is complete.
        // (Sends that fail before reaching APNs are not counted: when the counter stalls for 5 s,
        // the store decides.)
        var seen = 0
        var progressed = ContinuousClock.now
        while seen < devices && ContinuousClock.now - progressed < .seconds(5) {
            try await Task.sleep(for: .milliseconds(5))
            let total = server.metrics.sendsTotal
            if total > seen { (seen, progressed) = (total, ContinuousClock.now) }
        }
        var counts = try await store.counts(notificationID: notificationID)
        while counts.queued > 0 {
            try await Task.sleep(for: .milliseconds(5))
            counts = try await store.counts(notificationID: notificationID)
        }
        let seconds = (ContinuousClock.now - start).inSeconds
        let peak = ClientBenchCommand.peakMemoryMegabytes()

        await services.triggerGracefulShutdown()
        try await serving.value
        try await server.shutdown()

        return ServeBenchReport(
            devices: devices, store: storeName, target: target.name, workers: workers, batchSize: batchSize, connections: options.connections,
            streams: options.streams, registrationSeconds: registration, acceptedSeconds: accepted, seconds: seconds,
            perSecond: Double(devices) / seconds, delivered: counts.sent, failed: counts.failed, failures: counts.failedByReason,
            baselinePerSecond: baseline, ratio: baseline.map { Double(devices) / seconds / $0 }, peakMemoryMegabytes: peak
        )
    }

    /// The raw client's rate for the same number of notifications to the same tokens.
    private func baselineRate(_ target: BenchTarget) async throws -> Double {
        let client = try await target.connectedClient(command: "bench serve")
        let tokens = try BenchTarget.tokens(devices)
        let headers = NotificationHeaders(pushType: .alert, topic: "com.example.app", priority: .immediate)
        let start = ContinuousClock.now
        var failures = 0
        for try await result in client.send(all: LazyNotifications(count: devices, tokens: tokens, body: Array(ClientBenchCommand.defaultPayload.utf8), headers: headers)) {
            if !result.isSuccess { failures += 1 }
        }
        let seconds = (ContinuousClock.now - start).inSeconds
        try await client.shutdown()
        if failures > 0 { throw CommandError("the baseline run had \(failures) failures").exit(command: "bench serve") }
        return Double(devices) / seconds
    }
}

/// The bench's calls to the App Server's API.
private struct BenchAPI {
    let port: Int

    func call(_ method: String, _ path: String, key: String, body: String) async throws -> JSONValue {
        let answer = try await HTTP1Exchange.send(
            method: .init(rawValue: method), host: "127.0.0.1", port: port, path: path,
            headers: [("authorization", "Bearer \(key)")], body: Array(body.utf8)
        )
        guard (200..<300).contains(answer.status) else {
            throw CommandError("\(method) \(path) answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))").exit(command: "bench serve")
        }
        return try JSONValue(parsing: answer.body)
    }
}

/// What `herald bench serve` measured.
struct ServeBenchReport: Encodable {
    var devices: Int
    var store: String
    var target: String
    var workers: Int
    var batchSize: Int
    var connections: Int
    var streams: Int
    var registrationSeconds: Double
    /// From the request until its answer (the fan-out into the queue is in this).
    var acceptedSeconds: Double
    /// From the request until every delivery is recorded.
    var seconds: Double
    var perSecond: Double
    var delivered: Int
    var failed: Int
    var failures: [String: Int]
    var baselinePerSecond: Double?
    var ratio: Double?
    var peakMemoryMegabytes: Double

    var text: String {
        let errors = failures.isEmpty ? "none" : failures.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        var lines = [
            "target: \(target); store: \(store)",
            "registered \(devices) devices in \(String(format: "%.2f", registrationSeconds)) s (not part of the figures below)",
            "broadcast to \(devices) devices: accepted in \(String(format: "%.3f", acceptedSeconds)) s, all recorded in \(String(format: "%.2f", seconds)) s "
                + "(\(workers) workers × \(batchSize), \(connections) connections × \(streams) streams)",
            "throughput: \(String(format: "%.0f", perSecond)) notifications/s; delivered \(delivered), failed \(failed) (\(errors))",
        ]
        if let baselinePerSecond, let ratio {
            lines.append("raw client, same sandbox: \(String(format: "%.0f", baselinePerSecond)) notifications/s; server/raw: \(String(format: "%.2f", ratio))")
        }
        lines.append("peak memory during the broadcast: \(String(format: "%.1f", peakMemoryMegabytes)) MB")
        return lines.joined(separator: "\n")
    }

    /// Resets the process's peak resident size (Linux: `5` to /proc/self/clear_refs), so the
    /// figure covers the broadcast only.
    static func resetPeakMemory() {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }
}
