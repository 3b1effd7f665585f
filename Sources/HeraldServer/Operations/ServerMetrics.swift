import Foundation
import Synchronization

/// The server's counters, written in Prometheus' text format at `/metrics`: sends by status and
/// reason, a delivery latency histogram, notifications accepted and HTTP requests, retries and
/// the health of the store and of each route to APNs. Served from memory, never from the store.
public final class ServerMetrics: Sendable {
    /// Upper bounds of the latency buckets, in seconds.
    static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

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

    private struct State {
        var sends: [SendKey: Int] = [:]
        var latencyCounts = [Int](repeating: 0, count: ServerMetrics.latencyBuckets.count)
        var latencySum = 0.0
        var latencyCount = 0
        var accepted = 0
        var requests: [String: Int] = [:]  // "method|status"
        var tokensInvalidated: [String: Int] = [:]
        var retries: [String: Int] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    func recordSends(_ results: [Send]) {
        state.withLock { state in
            for result in results {
                state.sends[result.key, default: 0] += 1
                if let bucket = Self.latencyBuckets.firstIndex(where: { result.seconds <= $0 }) { state.latencyCounts[bucket] += 1 }
                state.latencySum += result.seconds
                state.latencyCount += 1
            }
        }
    }

    func recordAccepted() { state.withLock { $0.accepted += 1 } }

    func recordRequest(method: String, status: Int) { state.withLock { $0.requests["\(method)|\(status)", default: 0] += 1 } }

    /// Deliveries put back in the queue for a later attempt, by reason.
    func recordRetries(reason: String, count: Int) {
        guard count > 0 else { return }
        state.withLock { $0.retries[reason, default: 0] += count }
    }

    func recordInvalidated(reason: String) { state.withLock { $0.tokensInvalidated[reason, default: 0] += 1 } }

    /// Sends counted so far (all statuses).
    public var sendsTotal: Int { state.withLock { $0.sends.values.reduce(0, +) } }

    /// The exposition text. Everything in it is in memory: the queue depth is the health
    /// monitor's last reading (absent while the store does not answer).
    func render(queueDepth: Int?, storeUp: Bool, circuits: [(app: String, environment: String, open: Bool)], unrecorded: Int) -> String {
        let state = state.withLock { $0 }
        var lines: [String] = []
        lines.append("# HELP herald_sends_total Notifications sent to APNs, by HTTP status and APNs reason.")
        lines.append("# TYPE herald_sends_total counter")
        let series = state.sends.map { (status: $0.key.status.map(String.init) ?? "none", reason: $0.key.reason ?? "", count: $0.value) }
        for send in series.sorted(by: { ($0.status, $0.reason) < ($1.status, $1.reason) }) {
            lines.append("herald_sends_total{status=\"\(send.status)\",reason=\"\(Self.escape(send.reason))\"} \(send.count)")
        }
        lines.append("# HELP herald_queue_depth Deliveries waiting in the queue.")
        lines.append("# TYPE herald_queue_depth gauge")
        if let queueDepth { lines.append("herald_queue_depth \(queueDepth)") }
        lines.append("# HELP herald_store_up Whether the store answered the last health check.")
        lines.append("# TYPE herald_store_up gauge")
        lines.append("herald_store_up \(storeUp ? 1 : 0)")
        lines.append("# HELP herald_outcomes_unrecorded Outcomes answered by APNs and not yet written to the store.")
        lines.append("# TYPE herald_outcomes_unrecorded gauge")
        lines.append("herald_outcomes_unrecorded \(unrecorded)")
        lines.append("# HELP herald_delivery_retries_total Deliveries put back in the queue for a later attempt, by reason.")
        lines.append("# TYPE herald_delivery_retries_total counter")
        for (reason, count) in state.retries.sorted(by: { $0.key < $1.key }) {
            lines.append("herald_delivery_retries_total{reason=\"\(Self.escape(reason))\"} \(count)")
        }
        lines.append("# HELP herald_apns_circuit_open Whether the circuit of a route to APNs is open (APNs unreachable), by app and environment.")
        lines.append("# TYPE herald_apns_circuit_open gauge")
        for circuit in circuits {
            lines.append("herald_apns_circuit_open{app=\"\(Self.escape(circuit.app))\",environment=\"\(Self.escape(circuit.environment))\"} \(circuit.open ? 1 : 0)")
        }
        lines.append("# HELP herald_delivery_latency_seconds Time from the first attempt to APNs' last answer.")
        lines.append("# TYPE herald_delivery_latency_seconds histogram")
        var cumulative = 0
        for (index, bound) in Self.latencyBuckets.enumerated() {
            cumulative += state.latencyCounts[index]
            lines.append("herald_delivery_latency_seconds_bucket{le=\"\(bound)\"} \(cumulative)")
        }
        lines.append("herald_delivery_latency_seconds_bucket{le=\"+Inf\"} \(state.latencyCount)")
        lines.append("herald_delivery_latency_seconds_sum \(state.latencySum)")
        lines.append("herald_delivery_latency_seconds_count \(state.latencyCount)")
        lines.append("# HELP herald_notifications_accepted_total Notifications accepted by the API.")
        lines.append("# TYPE herald_notifications_accepted_total counter")
        lines.append("herald_notifications_accepted_total \(state.accepted)")
        lines.append("# HELP herald_tokens_invalidated_total Device tokens deactivated or flagged after APNs' answer.")
        lines.append("# TYPE herald_tokens_invalidated_total counter")
        for (reason, count) in state.tokensInvalidated.sorted(by: { $0.key < $1.key }) {
            lines.append("herald_tokens_invalidated_total{reason=\"\(Self.escape(reason))\"} \(count)")
        }
        lines.append("# HELP herald_http_requests_total API requests, by method and status.")
        lines.append("# TYPE herald_http_requests_total counter")
        for (key, count) in state.requests.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: "|")
            lines.append("herald_http_requests_total{method=\"\(parts[0])\",status=\"\(parts[1])\"} \(count)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }
}
