import Foundation
import HeraldCore
import Hummingbird
import NIOCore

extension HeraldServer {
    /// `/health` (liveness): the process answers, so 200, with the same report as `/ready`
    /// (`status` `ok` or `degraded`, and the problems). A store or APNs outage is not a reason to
    /// restart the process, which would drop the outcomes it keeps for the store; `/ready` is the
    /// endpoint that answers 503.
    func health() throws -> Response {
        var report = healthReport()
        report.status = report.ready ? "ok" : "degraded"
        return try JSONBody.response(report)
    }

    /// `/ready` (readiness): 503 with the reasons while the store does not answer, outcomes
    /// cannot be written, or a route to APNs is unreachable (its circuit is open).
    func readiness() throws -> Response {
        let report = healthReport()
        return try JSONBody.response(report, status: report.ready ? .ok : .serviceUnavailable)
    }

    /// What `/health` and `/ready` say, from the health monitor, the recorder and the circuits.
    func healthReport() -> HealthReport {
        let now = configuration.clock.now
        let snapshot = monitor.snapshot
        var store = HealthReport.StoreCheck(ok: snapshot.storeError == nil && snapshot.answeredAt != nil, error: snapshot.storeError)
        if snapshot.answeredAt == nil, snapshot.storeError == nil { store.error = "not checked yet" }
        store.answeredSecondsAgo = snapshot.answeredAt.map { max(0, now.timeIntervalSince($0)) }
        var writes = HealthReport.WriteCheck(ok: true, waiting: worker.recorder.backlog)
        if let failure = worker.recorder.failure {
            writes.ok = false
            writes.error = failure.error
            writes.failingSeconds = now.timeIntervalSince(failure.since)
        }
        let routes = worker.circuits.unwell.map { entry in
            var route = HealthReport.RouteCheck(app: entry.route.appID, environment: entry.route.environment.rawValue, circuit: "closed")
            switch entry.breaker.state {
            case .closed: route.circuit = "closed"
            case .open(let until):
                route.circuit = "open"
                route.nextProbeAt = until
            case .probing: route.circuit = "probing"
            }
            route.reason = entry.breaker.lastReason
            route.failures = entry.breaker.consecutiveFailures
            route.failingSeconds = entry.breaker.failingSince.map { now.timeIntervalSince($0) }
            return route
        }
        var problems: [String] = []
        if !store.ok { problems.append("store: \(store.error ?? "unavailable")") }
        if !writes.ok { problems.append("outcomes cannot be recorded (\(writes.waiting) waiting): \(writes.error ?? "")") }
        for route in routes where route.circuit != "closed" {
            problems.append("APNs unreachable for \(route.app) (\(route.environment)): \(route.reason ?? "failing")")
        }
        return HealthReport(
            status: problems.isEmpty ? "ok" : "unavailable", ready: problems.isEmpty, node: configuration.nodeID, problems: problems,
            store: store, writes: writes, apns: routes, queueDepth: snapshot.queue?.depth,
            retrying: snapshot.queue?.retrying,
            oldestPendingSeconds: snapshot.queue.map { queue in queue.oldestQueuedAt.map { max(0, now.timeIntervalSince($0)) } ?? 0 }
        )
    }

    /// `/metrics`, from memory: it never waits on the store.
    func prometheus() -> Response {
        let snapshot = monitor.snapshot
        let text = metrics.render(
            queueDepth: snapshot.queue?.depth, storeUp: snapshot.storeError == nil && snapshot.answeredAt != nil,
            circuits: worker.circuits.unwell.map { ($0.route.appID, $0.route.environment.rawValue, !$0.breaker.isClosed) },
            unrecorded: worker.recorder.backlog
        )
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }

    func openAPI() throws -> Response {
        guard let document = OpenAPIDocument.json else {
            throw APIError(
                .internalServerError, code: "openapi_missing",
                "this build has no openapi.json: the \(ServerResources.folderName) folder must stay beside the herald binary"
            )
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: document))
        )
    }

    /// Runs an API call, answering 503 (`store_unavailable`) if it has not finished within the
    /// store timeout (plus `extra`): while the store is unreachable, callers get a clear answer
    /// instead of a hang. The call is not cancelled: it goes on in the background and completes
    /// (a send's audience is queued whole) or fails when the store answers.
    func withStoreDeadline(extra: Duration = .zero, _ work: @escaping @Sendable () async throws -> Response) async throws -> Response {
        let deadline = configuration.storeTimeout + extra
        return try await DeadlineRace.run(within: deadline, timeoutError: {
            APIError(
                .serviceUnavailable, code: "store_unavailable",
                "the store did not answer within \(deadline.inSeconds) s; the request may still complete: repeat a send with the same Idempotency-Key, so it is not sent twice (GET /ready says why)"
            )
        }, work)
    }
}

/// `/health` and `/ready`'s JSON.
struct HealthReport: Encodable, Sendable {
    struct StoreCheck: Encodable, Sendable {
        var ok: Bool
        var error: String?
        var answeredSecondsAgo: Double?
    }
    struct WriteCheck: Encodable, Sendable {
        var ok: Bool
        /// Outcomes answered by APNs and not yet in the store.
        var waiting: Int
        var error: String?
        var failingSeconds: Double?
    }
    struct RouteCheck: Encodable, Sendable {
        var app: String
        var environment: String
        /// `closed` (sending), `open` (waiting for the next probe) or `probing`.
        var circuit: String
        var reason: String?
        var failures: Int?
        var failingSeconds: Double?
        var nextProbeAt: Date?
    }

    /// `ok`, or `unavailable` (`/ready`) / `degraded` (`/health`).
    var status: String
    var ready: Bool
    var node: String
    /// Why the server is not ready, in words.
    var problems: [String]
    var store: StoreCheck
    var writes: WriteCheck
    /// Routes to APNs that failed lately (closed circuits are not listed once they answer).
    var apns: [RouteCheck]
    var queueDepth: Int?
    var retrying: Int?
    /// How long the oldest queued delivery has waited.
    var oldestPendingSeconds: Double?
}
