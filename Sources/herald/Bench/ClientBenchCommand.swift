import ArgumentParser
import Foundation
import HeraldAPNs
import HeraldCore

/// `herald bench` (`herald bench client`): how fast Herald's client delivers, to an in-process sandbox over TLS on
/// loopback (the default) or to any APNs server.
struct ClientBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Measure notifications per second and latency of Herald's APNs client.",
        discussion: """
            By default it starts a HeraldSandbox in this process (TLS on 127.0.0.1, tokens \
            auto-accepted, no burst limit) and sends to it. With --url it sends to that server \
            instead (trusting --cacert), e.g. a `herald sandbox` started separately, which is how \
            docs/PERFORMANCE.md compares it with h2load. Only send benchmarks to servers you run.

            It signs with a new random key each run, which a server that does not check signatures \
            (herald sandbox --auto-accept) accepts. For a server that checks them (herald sandbox \
            --key-file), give the same credentials as herald send: --key, --key-id and --team-id, \
            --cert, or --profile (whose URL target, certificate to trust and bundle id are used too).
            """
    )

    @Option(name: [.customShort("n"), .customLong("count")], help: "Notifications to send.")
    var count = 100_000

    @OptionGroup var options: BenchTargetOptions

    @OptionGroup(title: "Credentials (default: a new random key)")
    var credentials: CredentialOptions

    @Option(help: "Take credentials, the --url target, the certificate to trust and the bundle id from a saved profile (herald profile add); flags given here win.")
    var profile: String?

    @Option(help: "apns-topic of the notifications.")
    var bundleID = ClientBenchCommand.defaultBundleID

    @Option(help: "Payload file (default: a 147-byte alert).")
    var payload: String?

    @Option(help: "Distinct device tokens to cycle through.")
    var devices = 1000

    @Flag(help: "Print the figures as JSON.")
    var json = false

    func validate() throws {
        if count < 1 || devices < 1 { throw ValidationError("--count and --devices must be at least 1") }
    }

    func run() async throws {
        var options = options
        var credentials = credentials
        var bundleID = bundleID
        if let profile {
            let saved = try ProfileStore(home: HeraldHome()).profile(named: profile)
            try options.fill(from: saved, command: "bench")
            credentials.fill(from: saved)
            if let savedBundle = saved.bundleID, bundleID == Self.defaultBundleID { bundleID = savedBundle }
        }
        let authentication = try credentials.authentication(environment: ProcessInfo.processInfo.environment, command: "bench")
        let body = try payload.map { try readInput($0, command: "bench") } ?? Array(Self.defaultPayload.utf8)
        let target = try await BenchTarget.start(options, command: "bench")
        let client = try await target.connectedClient(authentication: authentication, command: "bench")

        let tokens = try BenchTarget.tokens(devices)
        let headers = NotificationHeaders(pushType: .alert, topic: bundleID, priority: .immediate)
        let total = count
        var histogram = LatencyHistogram()
        var failures: [String: Int] = [:]
        let start = ContinuousClock.now
        let stream = client.send(all: LazyNotifications(count: total, tokens: tokens, body: body, headers: headers))
        for try await result in stream {
            histogram.record(microseconds: Int(result.latency.inMilliseconds * 1000))
            if !result.isSuccess {
                failures[result.reason?.rawValue ?? result.failure?.description ?? "HTTP \(result.status ?? 0)", default: 0] += 1
            }
        }
        let elapsed = ContinuousClock.now - start
        try await client.shutdown()
        try await target.shutdown()
        if case .token(let source)? = authentication { TokenCache(home: HeraldHome()).keep(source) }

        let seconds = elapsed.inSeconds
        let report = BenchReport(
            notifications: total, connections: options.connections, streams: options.streams, payloadBytes: body.count, seconds: seconds,
            perSecond: Double(total) / seconds, p50Milliseconds: Double(histogram.percentile(0.5)) / 1000,
            p90Milliseconds: Double(histogram.percentile(0.9)) / 1000, p99Milliseconds: Double(histogram.percentile(0.99)) / 1000,
            maxMilliseconds: Double(histogram.maximumMicroseconds) / 1000, failures: failures,
            peakMemoryMegabytes: ProcessUsage.peakMemoryMegabytes(), target: target.name
        )
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            say(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            say(report.text)
        }
        if !failures.isEmpty { throw ExitCode(1) }
    }

    static let defaultBundleID = "com.example.app"

    static let defaultPayload =
        #"{"aps":{"alert":{"title":"Benchmark","body":"A notification of about 150 bytes, as in the issue"},"badge":1,"sound":"default"},"order":"A-1234567"}"#
}

/// The benchmark's notifications, made one at a time as the client pulls them.
struct LazyNotifications: AsyncSequence, Sendable {
    typealias Element = PushNotification
    let count: Int
    let tokens: [DeviceToken]
    let body: [UInt8]
    let headers: NotificationHeaders

    struct AsyncIterator: AsyncIteratorProtocol {
        let source: LazyNotifications
        var index = 0

        mutating func next() async -> PushNotification? {
            guard index < source.count else { return nil }
            defer { index += 1 }
            return PushNotification(deviceToken: source.tokens[index % source.tokens.count], body: .raw(source.body), headers: source.headers)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
}

/// What `herald bench` measured.
struct BenchReport: Encodable {
    var notifications: Int
    var connections: Int
    var streams: Int
    var payloadBytes: Int
    var seconds: Double
    var perSecond: Double
    var p50Milliseconds: Double
    var p90Milliseconds: Double
    var p99Milliseconds: Double
    var maxMilliseconds: Double
    var failures: [String: Int]
    var peakMemoryMegabytes: Double
    var target: String

    var text: String {
        let errors = failures.isEmpty ? "none" : failures.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return """
            target: \(target)
            sent \(notifications) notifications (\(payloadBytes)-byte payload) over \(connections) connections × \(streams) streams in \(String(format: "%.2f", seconds)) s
            throughput: \(String(format: "%.0f", perSecond)) notifications/s
            latency: p50 \(String(format: "%.2f", p50Milliseconds)) ms, p90 \(String(format: "%.2f", p90Milliseconds)) ms, p99 \(String(format: "%.2f", p99Milliseconds)) ms, max \(String(format: "%.2f", maxMilliseconds)) ms
            errors: \(errors)
            peak memory: \(String(format: "%.1f", peakMemoryMegabytes)) MB
            """
    }
}
