import CoreMetrics
import Foundation
import HeraldAPNs
import HeraldCore
import Prometheus
import Synchronization

/// The server's metrics, kept through swift-metrics in this server's own Prometheus registry
/// (no global metrics system is bootstrapped) and exported by swift-prometheus at `/metrics`:
/// sends by status and reason, a delivery latency histogram, notifications accepted, API
/// requests, retries, invalidated tokens, and at each scrape the store's health, the queue and
/// the routes to APNs. Served from memory, never from the store.
///
/// Label values are bounded: a reason APNs does not document, an unknown method, or more than
/// ``maximumLabelValues`` values of one label are counted under `other`.
public final class ServerMetrics: Sendable {
    /// Upper bounds of the latency buckets, in seconds.
    static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    /// Distinct values one label may take before the rest are `other`.
    static let maximumLabelValues = 100

    /// One `herald_sends_total` series: an HTTP status (nil when no answer came) and a reason.
    struct SendKey: Hashable, Sendable {
        var status: Int?
        var reason: String?
    }

    /// One send's outcome for the counters.
    struct Send: Sendable {
        var key: SendKey
        var seconds: Double
    }

    /// The registry `/metrics` exports.
    public let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let accepted: CoreMetrics.Counter
    private let latency: CoreMetrics.Timer
    private let sends = Mutex<[SendKey: CoreMetrics.Counter]>([:])
    private let counters = Mutex<[String: CoreMetrics.Counter]>([:])
    private let labelValues = Mutex<[String: Set<String>]>([:])
    private let reportedCircuits = Mutex<Set<[String]>>([])
    private let sent = Atomic<Int>(0)

    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets["herald_delivery_latency_seconds"] = Self.latencyBuckets.map { .nanoseconds(Int64($0 * 1e9)) }
        self.factory = factory
        accepted = CoreMetrics.Counter(label: "herald_notifications_accepted_total", factory: factory)
        latency = CoreMetrics.Timer(label: "herald_delivery_latency_seconds", factory: factory)
    }

    func recordSends(_ results: [Send]) {
        guard !results.isEmpty else { return }
        var runs: [SendKey: Int] = [:]
        for result in results {
            runs[result.key, default: 0] += 1
            latency.recordNanoseconds(Int64((result.seconds * 1e9).rounded()))
        }
        for (key, count) in runs { sendCounter(key).increment(by: count) }
        sent.add(results.count, ordering: .relaxed)
    }

    private func sendCounter(_ key: SendKey) -> CoreMetrics.Counter {
        sends.withLock { sends in
            if let counter = sends[key] { return counter }
            let reason = key.reason.map { APNsReason(rawValue: $0).isKnown || Self.transportReasons.contains($0) ? $0 : "other" } ?? ""
            let status = key.status.map(String.init) ?? "none"
            let counter = CoreMetrics.Counter(
                label: "herald_sends_total",
                dimensions: [("status", bounded("sends.status", status)), ("reason", bounded("sends.reason", reason))], factory: factory
            )
            sends[key] = counter
            return counter
        }
    }

    /// Reasons Herald gives to sends APNs did not answer.
    static let transportReasons: Set<String> = APNsClientError.reasonCodes.union(["NoCredentials", "AppOrNotificationDeleted", "Unknown"])

    func recordAccepted() { accepted.increment() }

    func recordRequest(method: String, status: Int) {
        let known = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].contains(method) ? method : "other"
        counter("herald_http_requests_total", [("method", known), ("status", bounded("requests.status", String(status)))]).increment()
    }

    /// Deliveries put back in the queue for a later attempt, by reason.
    func recordRetries(reason: String, count: Int) {
        guard count > 0 else { return }
        counter("herald_delivery_retries_total", [("reason", bounded("retries.reason", reason))]).increment(by: count)
    }

    func recordInvalidated(reason: String) {
        counter("herald_tokens_invalidated_total", [("reason", bounded("invalidated.reason", reason))]).increment()
    }

    /// Sends counted so far (all statuses).
    public var sendsTotal: Int { sent.load(ordering: .relaxed) }

    private func counter(_ label: String, _ dimensions: [(String, String)]) -> CoreMetrics.Counter {
        let key = ([label] + dimensions.map { "\($0.0)=\($0.1)" }).joined(separator: "|")
        return counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(label: label, dimensions: dimensions, factory: factory)
            counters[key] = counter
            return counter
        }
    }

    /// `value`, or `other` once the label has taken ``maximumLabelValues`` values.
    private func bounded(_ label: String, _ value: String) -> String {
        labelValues.withLock { seen in
            if seen[label, default: []].contains(value) { return value }
            guard seen[label, default: []].count < Self.maximumLabelValues else { return "other" }
            seen[label, default: []].insert(value)
            return value
        }
    }

    /// The exposition text: the gauges of what the health monitor and the workers last saw
    /// (the queue depth is absent while the store does not answer), then every series.
    func render(queueDepth: Int?, storeUp: Bool, circuits: [(app: String, environment: String, open: Bool)], unrecorded: Int) -> String {
        let depth = registry.makeGauge(name: "herald_queue_depth", help: "Deliveries waiting in the queue.")
        if let queueDepth { depth.set(to: Double(queueDepth)) } else { registry.unregisterGauge(depth) }
        registry.makeGauge(name: "herald_store_up", help: "Whether the store answered the last health check.").set(to: storeUp ? 1 : 0)
        registry.makeGauge(name: "herald_outcomes_unrecorded", help: "Outcomes answered by APNs and not yet written to the store.")
            .set(to: Double(unrecorded))
        // A route that was unwell and is well again reads 0.
        let current = Set(circuits.map { [$0.app, $0.environment] })
        let reported = reportedCircuits.withLock { reported in
            defer { reported.formUnion(current) }
            return reported
        }
        for route in reported.union(current) {
            let open = circuits.first { $0.app == route[0] && $0.environment == route[1] }?.open ?? false
            registry.makeGauge(
                name: "herald_apns_circuit_open", labels: [("app", route[0]), ("environment", route[1])],
                help: "Whether the circuit of a route to APNs is open (APNs unreachable), by app and environment."
            ).set(to: open ? 1 : 0)
        }
        return registry.emitToString()
    }
}
