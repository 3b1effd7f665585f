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
            --database or --postgres is given) and starts the App Server in this process with its \
            API on a free port. Then, for each of --rounds rounds, the raw client sends the same \
            number of notifications to the same sandbox and tokens (unless --no-baseline), and \
            `POST /v1/notifications {"to": {"all": true}}` is timed until every delivery is \
            recorded. The figures are the median round's (by server/raw ratio), every round is \
            shown. Peak memory is the process's highest peak resident size during a broadcast. \
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

    @Option(help: "The server's delivery workers (batches in flight), per node.")
    var workers = 4

    @Option(help: "App Server nodes in this process sharing the --postgres database, each with its own connections and workers; the broadcast goes through the first.")
    var nodes = 1

    @Option(help: "Deliveries per batch.")
    var batchSize = 1000

    @Option(help: "The server's send window: deliveries sent and not yet recorded at most (default connections × streams).")
    var sendWindow: Int?

    @OptionGroup var options: BenchTargetOptions

    @Option(help: "Rounds, each a raw client run and then a broadcast to every device; the figures are the median round's.")
    var rounds = 3

    @Flag(help: "Skip the raw client's runs.")
    var noBaseline = false

    @Flag(help: "Print the figures as JSON.")
    var json = false

    func validate() throws {
        if let sendWindow, sendWindow < 1 { throw ValidationError("--send-window must be at least 1") }
        if devices < 1 || workers < 1 || batchSize < 1 || rounds < 1 {
            throw ValidationError("--devices, --workers, --batch-size and --rounds must be at least 1")
        }
        if database != nil && postgres != nil { throw ValidationError("give --database or --postgres, not both") }
        if nodes < 1 || nodes > 8 { throw ValidationError("--nodes must be 1 to 8") }
        if nodes > 1 && postgres == nil { throw ValidationError("--nodes above 1 needs --postgres (nodes share a PostgreSQL database; a SQLite file serves one node)") }
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
            if report.rounds.contains(where: { $0.failed > 0 || $0.delivered != devices }) { throw ExitCode(1) }
        } catch {
            try? await target.shutdown()
            throw error
        }
    }

    private func measure(_ target: BenchTarget) async throws -> ServeBenchReport {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bench-\(UUID().uuidString)")
        var stores: [any HeraldStore] = []
        let storeName: String
        if let postgres {
            for _ in 0..<nodes { stores.append(try PostgresStore(url: postgres, logger: Logger(label: "herald.bench.store"))) }
            storeName = nodes == 1 ? "PostgreSQL" : "PostgreSQL, \(nodes) nodes"
        } else {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = database ?? folder.appendingPathComponent("herald.sqlite").path
            stores.append(try SQLiteStore(path: path))
            storeName = "SQLite (\(path))"
        }
        defer { try? FileManager.default.removeItem(at: folder) }

        var logger = Logger(label: "herald.bench.serve")
        logger.logLevel = .error
        var servers: [HeraldServer] = []
        for (index, store) in stores.enumerated() {
            var configuration = ServerConfiguration(
                port: 0, nodeID: "bench-\(index + 1)", workers: workers, batchSize: batchSize, pollInterval: .milliseconds(20),
                apnsConnections: options.connections, apnsStreams: options.streams,
                sandbox: .external(url: target.url, certificate: target.certificate), logger: logger
            )
            configuration.sendWindow = sendWindow
            servers.append(try await HeraldServer.start(store: store, configuration: configuration))
        }
        let server = servers[0]
        let store = stores[0]
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var applications: [any Service] = [try server.application { port in portContinuation.yield(port) }]
        for other in servers.dropFirst() { applications.append(try other.application { _ in }) }
        let services = ServiceGroup(configuration: ServiceGroupConfiguration(services: applications, logger: logger))
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

        var measured: [ServeBenchReport.Round] = []
        var peak = 0.0
        for index in 0..<rounds {
            // The raw client first, on the same sandbox and tokens, so each round compares like
            // with like on the machine as it is at that moment.
            let cpuBefore = ProcessUsage.cpuSeconds()
            let baseline = noBaseline ? nil : try await baselineRate(target)
            let baselineCPU = ProcessUsage.cpuSeconds() - cpuBefore
            ProcessUsage.resetPeakMemory()
            // Progress on standard error as it happens (bench/serve-postgres-cpu.sh times the
            // store's processes between these lines).
            Self.progress("round \(index + 1): broadcasting")
            var round = try await broadcast(api: api, appKey: appKey, servers: servers, store: store)
            Self.progress("round \(index + 1): broadcast recorded")
            round.baselinePerSecond = baseline
            round.baselineMicrosecondsPerNotification = baseline.map { _ in baselineCPU / Double(devices) * 1_000_000 }
            round.ratio = baseline.map { round.perSecond / $0 }
            measured.append(round)
            peak = max(peak, ProcessUsage.peakMemoryMegabytes())
        }

        await services.triggerGracefulShutdown()
        try await serving.value
        for server in servers { try await server.shutdown() }

        return ServeBenchReport(
            devices: devices, store: storeName, target: target.name, nodes: nodes, workers: workers, batchSize: batchSize, connections: options.connections,
            streams: options.streams, registrationSeconds: registration, rounds: measured, peakMemoryMegabytes: peak
        )
    }

    private static func progress(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// One `POST /v1/notifications` to every device, timed until the queue is empty.
    private func broadcast(api: BenchAPI, appKey: String, servers: [HeraldServer], store: any HeraldStore) async throws -> ServeBenchReport.Round {
        // Sends counted over every node.
        let sendsTotal = { servers.reduce(0) { $0 + $1.metrics.sendsTotal } }
        let start = ContinuousClock.now
        let cpuBefore = ProcessUsage.cpuSeconds()
        let before = sendsTotal()
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
            let total = sendsTotal() - before
            if total > seen { (seen, progressed) = (total, ContinuousClock.now) }
        }
        // Done when nothing is left in the queue (the store is the bench's own): a look at the
        // queue's index, where counting the notification's rows would take a scan of them all.
        while try await store.queueDepth() > 0 {
            try await Task.sleep(for: .milliseconds(5))
        }
        let seconds = (ContinuousClock.now - start).inSeconds
        let cpu = ProcessUsage.cpuSeconds() - cpuBefore
        let counts = try await store.counts(notificationID: notificationID)
        return ServeBenchReport.Round(
            acceptedSeconds: accepted, seconds: seconds, perSecond: Double(devices) / seconds,
            microsecondsPerNotification: cpu / Double(devices) * 1_000_000, delivered: counts.sent, failed: counts.failed,
            failures: counts.failedByReason
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
    /// One raw client run and one broadcast.
    struct Round: Encodable {
        /// From the request until its answer (the fan-out into the queue is in this).
        var acceptedSeconds: Double
        /// From the request until every delivery is recorded.
        var seconds: Double
        var perSecond: Double
        /// This process's CPU time (all threads, user and system) per notification, in µs; with
        /// the sandbox in the process, its share is in it.
        var microsecondsPerNotification: Double
        var delivered: Int
        var failed: Int
        var failures: [String: Int]
        var baselinePerSecond: Double?
        var baselineMicrosecondsPerNotification: Double?
        var ratio: Double?
    }

    var devices: Int
    var store: String
    var target: String
    var nodes: Int
    var workers: Int
    var batchSize: Int
    var connections: Int
    var streams: Int
    var registrationSeconds: Double
    var rounds: [Round]
    /// The highest peak resident size over the broadcasts.
    var peakMemoryMegabytes: Double

    /// The round in the middle by server/raw ratio (by rate without a baseline); of two in the
    /// middle, the lower.
    var median: Round {
        let sorted = rounds.sorted { ($0.ratio ?? $0.perSecond) < ($1.ratio ?? $1.perSecond) }
        return sorted[(sorted.count - 1) / 2]
    }

    enum CodingKeys: String, CodingKey {
        case devices, store, target, nodes, workers, batchSize, connections, streams, registrationSeconds, rounds, peakMemoryMegabytes
        case acceptedSeconds, seconds, perSecond, microsecondsPerNotification, delivered, failed, failures, baselinePerSecond
        case baselineMicrosecondsPerNotification, ratio
    }

    /// The median round's figures at the top level, every round under `rounds`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(devices, forKey: .devices)
        try container.encode(store, forKey: .store)
        try container.encode(target, forKey: .target)
        try container.encode(nodes, forKey: .nodes)
        try container.encode(workers, forKey: .workers)
        try container.encode(batchSize, forKey: .batchSize)
        try container.encode(connections, forKey: .connections)
        try container.encode(streams, forKey: .streams)
        try container.encode(registrationSeconds, forKey: .registrationSeconds)
        try container.encode(rounds, forKey: .rounds)
        try container.encode(peakMemoryMegabytes, forKey: .peakMemoryMegabytes)
        let median = median
        try container.encode(median.acceptedSeconds, forKey: .acceptedSeconds)
        try container.encode(median.seconds, forKey: .seconds)
        try container.encode(median.perSecond, forKey: .perSecond)
        try container.encode(median.microsecondsPerNotification, forKey: .microsecondsPerNotification)
        try container.encodeIfPresent(median.baselineMicrosecondsPerNotification, forKey: .baselineMicrosecondsPerNotification)
        try container.encode(median.delivered, forKey: .delivered)
        try container.encode(median.failed, forKey: .failed)
        try container.encode(median.failures, forKey: .failures)
        try container.encodeIfPresent(median.baselinePerSecond, forKey: .baselinePerSecond)
        try container.encodeIfPresent(median.ratio, forKey: .ratio)
    }

    var text: String {
        var lines = [
            "target: \(target); store: \(store)",
            "registered \(devices) devices in \(String(format: "%.2f", registrationSeconds)) s (not part of the figures below)",
            "each round: the raw client sends \(devices) notifications, then the server broadcasts to the \(devices) devices "
                + "(\(nodes == 1 ? "" : "\(nodes) nodes, each ")\(workers) workers × \(batchSize), \(connections) connections × \(streams) streams)",
        ]
        for (index, round) in rounds.enumerated() {
            let errors = round.failures.isEmpty ? "" : " (" + round.failures.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + ")"
            var line = "round \(index + 1): accepted in \(String(format: "%.3f", round.acceptedSeconds)) s, all recorded in \(String(format: "%.2f", round.seconds)) s: "
                + "\(String(format: "%.0f", round.perSecond)) notifications/s (CPU \(String(format: "%.1f", round.microsecondsPerNotification)) µs each), "
                + "delivered \(round.delivered), failed \(round.failed)\(errors)"
            if let baseline = round.baselinePerSecond, let ratio = round.ratio {
                line += "; raw client \(String(format: "%.0f", baseline))/s"
                if let cpu = round.baselineMicrosecondsPerNotification { line += " (CPU \(String(format: "%.1f", cpu)) µs each)" }
                line += "; server/raw \(String(format: "%.2f", ratio))"
            }
            lines.append(line)
        }
        let median = median
        var summary = "median round: throughput \(String(format: "%.0f", median.perSecond)) notifications/s"
        if let baseline = median.baselinePerSecond, let ratio = median.ratio {
            summary += "; raw client \(String(format: "%.0f", baseline)) notifications/s; server/raw: \(String(format: "%.2f", ratio))"
        }
        lines.append(summary)
        lines.append("peak memory during the broadcasts: \(String(format: "%.1f", peakMemoryMegabytes)) MB")
        return lines.joined(separator: "\n")
    }
}
