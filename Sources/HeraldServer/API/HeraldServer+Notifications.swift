import Foundation
import HTTPTypes
import HeraldStore
import Hummingbird

extension HeraldServer {
    func send(_ request: Request) async throws -> Response {
        let appID = try await keys.app(request)
        guard let app = try await store.app(id: appID) else { throw APIError.notFound("no app '\(appID)'") }
        var input = try await JSONBody.decode(SendRequest.self, from: request, limit: configuration.bodyLimit)
        if let header = request.headers[HTTPField.Name("Idempotency-Key")!] { input.idempotencyKey = header }
        if let key = input.idempotencyKey, key.isEmpty || key.count > 200 { throw APIError.badRequest("idempotencyKey must be 1 to 200 characters") }
        let wait = request.uri.queryParameters["wait"].map { $0 == "true" || $0 == "1" } ?? false

        let (message, diagnostics) = try input.outgoing(app: app, linter: linter)
        let audience = try input.audience(kind: message.kind)
        let now = configuration.clock.now
        let notification = StoredNotification(
            id: UUID().uuidString.lowercased(), appID: appID, message: message.encoded(), audience: audience,
            idempotencyKey: input.idempotencyKey, createdAt: now
        )
        let outcome = try await store.enqueue(notification, idempotentSince: now.addingTimeInterval(-configuration.idempotencyWindow))
        let stored = outcome.notification
        // The same key with another request is a mistake, not a repeat: sending the earlier
        // notification's answer would hide that the new one was never sent.
        if case .existing(let earlier) = outcome, let key = input.idempotencyKey, !Self.isSameRequest(earlier, notification) {
            throw APIError(
                .unprocessableContent, code: "idempotency_key_reused",
                "Idempotency-Key '\(key)' was used for a different notification (\(earlier.id)) within \(Int(configuration.idempotencyWindow / 3600)) h; "
                    + "a repeat must send the same body and target, and a new notification needs a new key"
            )
        }
        if case .created = outcome {
            metrics.recordAccepted()
            worker.wake.signal()
        }
        var answer = SendView(
            id: stored.id, audienceSize: stored.audienceSize, duplicate: outcome != .created(stored),
            diagnostics: diagnostics.isEmpty ? nil : diagnostics
        )
        guard wait else { return try JSONBody.response(answer, status: .accepted) }
        guard stored.audienceSize <= configuration.waitLimit else {
            answer.note = "wait=true answers for audiences up to \(configuration.waitLimit) devices; follow GET /v1/notifications/\(stored.id)"
            return try JSONBody.response(answer, status: .accepted)
        }
        let deadline = ContinuousClock.now + configuration.waitTimeout
        var counts = try await store.counts(notificationID: stored.id)
        while counts.queued > 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            counts = try await store.counts(notificationID: stored.id)
        }
        answer.report = ReportView(notification: stored, counts: counts)
        answer.results = try await store.deliveries(notificationID: stored.id, limit: configuration.waitLimit).map(DeliveryView.init)
        return try JSONBody.response(answer, status: counts.queued == 0 ? .ok : .accepted)
    }

    /// Whether two notifications were made from the same request: the same message (payload
    /// variants and headers, compared decoded) to the same audience.
    static func isSameRequest(_ earlier: StoredNotification, _ repeated: StoredNotification) -> Bool {
        guard earlier.audience == repeated.audience else { return false }
        guard let first = try? OutgoingMessage.decode(earlier.message), let second = try? OutgoingMessage.decode(repeated.message) else {
            return earlier.message == repeated.message
        }
        return first == second
    }

    func report(_ request: Request, id: String) async throws -> Response {
        let appID = try await keys.app(request)
        guard let notification = try await store.notification(appID: appID, id: id) else { throw APIError.notFound("no notification '\(id)' in this app") }
        var view = ReportView(notification: notification, counts: try await store.counts(notificationID: id))
        if request.uri.queryParameters["deliveries"] == "true" {
            let limit = try Self.limit(request, default: 100, maximum: 1000)
            view.deliveries = try await store.deliveries(notificationID: id, limit: limit).map(DeliveryView.init)
        }
        return try JSONBody.response(view)
    }
}

/// `POST /v1/notifications`' answer.
struct SendView: Encodable, Sendable {
    var id: String
    var audienceSize: Int
    /// True when the idempotency key had been used: this is the earlier notification.
    var duplicate: Bool
    /// Lint's warnings (errors refuse the request).
    var diagnostics: [DiagnosticView]?
    var note: String?
    /// With `wait=true`: the report and each device's result.
    var report: ReportView?
    var results: [DeliveryView]?
}

/// A notification's report.
struct ReportView: Encodable, Sendable {
    var id: String
    var createdAt: Date
    var scheduleId: String?
    var audienceSize: Int
    var sent: Int
    var failed: Int
    var failedByReason: [String: Int]
    var expired: Int
    var pending: Int
    /// Of the pending, those waiting for a retry after an attempt that did not go through, by
    /// the last attempt's reason.
    var retryingByReason: [String: Int]
    var deliveries: [DeliveryView]?

    init(notification: StoredNotification, counts: DeliveryCounts) {
        id = notification.id
        createdAt = notification.createdAt
        scheduleId = notification.scheduleID
        audienceSize = notification.audienceSize
        sent = counts.sent
        failed = counts.failed
        failedByReason = counts.failedByReason
        expired = counts.expired
        pending = counts.queued
        retryingByReason = counts.retryingByReason
    }
}
