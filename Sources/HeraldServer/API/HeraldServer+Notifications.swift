import Foundation
import HeraldCore
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
        if let key = input.idempotencyKey, key.hasPrefix(Scheduler.reservedKeyPrefix) {
            throw APIError.badRequest("idempotencyKey must not begin with '\(Scheduler.reservedKeyPrefix)': such keys are the scheduler's, one per firing")
        }
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
        if case .tokens(let tokens) = audience.selection, stored.audienceSize < tokens.count {
            answer.skippedTokens = try await skippedTokens(tokens, appID: appID, kind: audience.kind)
        }
        guard wait else { return try JSONBody.response(answer, status: .accepted) }
        guard !stored.queuing else {
            answer.note = "its audience is still being queued; follow GET /v1/notifications/\(stored.id)"
            return try JSONBody.response(answer, status: .accepted)
        }
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

    /// Why each of `tokens` that an audience by tokens left out was left out.
    func skippedTokens(_ tokens: [String], appID: String, kind: DeviceKind) async throws -> [SkippedToken] {
        let found = try await store.devices(appID: appID, matching: DeviceQuery(tokens: tokens, limit: tokens.count))
        let devices = Dictionary(found.map { ($0.token, $0) }, uniquingKeysWith: { first, _ in first })
        return tokens.compactMap { token in
            guard let device = devices[token] else { return SkippedToken(token: token, why: "not registered in this app") }
            switch device.state {
            case .unregistered:
                return SkippedToken(token: token, why: "unregistered (\(device.stateReason ?? "Unregistered")); sent again once the app registers it")
            case .invalid:
                return SkippedToken(token: token, why: "flagged by APNs (\(device.stateReason ?? "BadDeviceToken")); sent again once the app registers it")
            case .active:
                guard device.kind == kind else {
                    return SkippedToken(token: token, why: "registered as a \(device.kind.rawValue) token; this push type goes to \(kind.rawValue) tokens")
                }
                return nil
            }
        }
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

    /// `GET /v1/notifications`: newest first, a page at a time, by time range and status.
    func listNotifications(_ request: Request) async throws -> Response {
        let appID = try await keys.app(request)
        let parameters = request.uri.queryParameters
        try Self.allowOnly(["since", "until", "status", "limit", "cursor"], in: request)
        func time(_ name: String) throws(APIError) -> Date? {
            guard let text = parameters[name[...]].map(String.init) else { return nil }
            guard let date = ISO8601DateFormatter().date(from: text) ?? ISO8601DateFormatter.withFractions.date(from: text) else {
                throw .badRequest("\(name) must be an ISO 8601 time such as 2026-11-24T08:00:00Z; got '\(text)'")
            }
            return date
        }
        var query = NotificationQuery(since: try time("since"), until: try time("until"), limit: try Self.limit(request, default: 50, maximum: 500))
        if let status = parameters["status"].map(String.init) {
            query.status = try NotificationStatus(rawValue: status).orThrow(
                .badRequest("status '\(status)' is not one of \(NotificationStatus.allowedValues)")
            )
        }
        if let parts = try PageCursor.from(request, list: "notifications", parts: 2) {
            let created = try Double(parts[0]).orThrow(.badRequest("cursor is not one this server gave"))
            query.after = .init(createdAt: Date(timeIntervalSince1970: created), id: parts[1])
        }
        let entries = try await store.notifications(appID: appID, matching: query)
        let next = entries.count == query.limit ? entries.last.map {
            PageCursor(list: "notifications", parts: [String($0.notification.createdAt.timeIntervalSince1970), $0.notification.id]).encoded
        } : nil
        return try JSONBody.response(NotificationPage(notifications: entries.map(NotificationSummary.init), nextCursor: next))
    }

    /// `GET /v1/notifications/{id}/deliveries`: each device's result in the order queued, a
    /// page at a time (up to 1,000 per page, however large the audience), by `state`.
    func notificationDeliveries(_ request: Request, id: String) async throws -> Response {
        let appID = try await keys.app(request)
        guard try await store.notification(appID: appID, id: id) != nil else { throw APIError.notFound("no notification '\(id)' in this app") }
        try Self.allowOnly(["state", "limit", "cursor"], in: request)
        let limit = try Self.limit(request, default: 100, maximum: 1_000)
        let state = try request.uri.queryParameters["state"].map { text throws(APIError) in
            try DeliveryState(rawValue: String(text)).orThrow(.badRequest("state '\(text)' is not one of \(DeliveryState.allowedValues)"))
        }
        let after = try PageCursor.from(request, list: "deliveries", parts: 1).map { parts throws(APIError) in
            try Int64(parts[0]).orThrow(.badRequest("cursor is not one this server gave"))
        }
        let deliveries = try await store.deliveries(notificationID: id, after: after, state: state, limit: limit)
        let next = deliveries.count == limit ? deliveries.last.map { PageCursor(list: "deliveries", parts: [String($0.id)]).encoded } : nil
        return try JSONBody.response(DeliveryPage(deliveries: deliveries.map(DeliveryView.init), nextCursor: next))
    }

    /// `POST /v1/notifications/{id}/cancel`: stops a notification still going out. What was
    /// sent stays recorded; the rest becomes `cancelled`. 409 when it has already finished.
    func cancelNotification(_ request: Request, id: String) async throws -> Response {
        let appID = try await keys.app(request)
        guard let notification = try await store.notification(appID: appID, id: id) else { throw APIError.notFound("no notification '\(id)' in this app") }
        // (An audience still being queued has no size yet: it can be cancelled.)
        if notification.cancelledAt == nil, !notification.queuing, notification.audienceSize > 0, try await store.counts(notificationID: id).queued == 0 {
            throw APIError.conflict("notification '\(id)' has finished going out: nothing is left to cancel")
        }
        guard let cancelled = try await store.cancel(appID: appID, notificationID: id, now: configuration.clock.now) else {
            throw APIError.notFound("no notification '\(id)' in this app")
        }
        worker.notificationCancelled(id)
        configuration.logger.info("notification cancelled", metadata: ["app": "\(appID)", "notification": "\(id)"])
        return try JSONBody.response(ReportView(notification: cancelled, counts: try await store.counts(notificationID: id)))
    }
}

extension ISO8601DateFormatter {
    /// ISO 8601 with fractional seconds.
    static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}

/// A token of `to.tokens` that was not sent to, and why.
struct SkippedToken: Encodable, Sendable, Hashable {
    var token: String
    var why: String
}

/// A page of notifications.
struct NotificationPage: Encodable, Sendable {
    var notifications: [NotificationSummary]
    var nextCursor: String?
}

/// A notification in a list: counts are in its report (`GET /v1/notifications/{id}`).
struct NotificationSummary: Encodable, Sendable {
    var id: String
    var createdAt: Date
    /// `sending`, `finished` or `cancelled`.
    var status: String
    var audienceSize: Int
    var scheduleId: String?
    var idempotencyKey: String?
    var cancelledAt: Date?

    init(_ entry: NotificationEntry) {
        id = entry.notification.id
        createdAt = entry.notification.createdAt
        status = entry.status.rawValue
        audienceSize = entry.notification.audienceSize
        scheduleId = entry.notification.scheduleID
        idempotencyKey = entry.notification.idempotencyKey
        cancelledAt = entry.notification.cancelledAt
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
    /// Tokens of `to.tokens` that were not sent to, and why (not registered, unregistered,
    /// another kind).
    var skippedTokens: [SkippedToken]?
    /// With `wait=true`: the report and each device's result.
    var report: ReportView?
    var results: [DeliveryView]?
}

/// A notification's report.
struct ReportView: Encodable, Sendable {
    var id: String
    var createdAt: Date
    var scheduleId: String?
    /// `sending`, `finished` or `cancelled`.
    var status: String
    var cancelledAt: Date?
    var audienceSize: Int
    var sent: Int
    var failed: Int
    var failedByReason: [String: Int]
    var expired: Int
    /// Never sent: the notification was cancelled first.
    var cancelled: Int
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
        cancelled = counts.cancelled
        pending = counts.queued
        cancelledAt = notification.cancelledAt
        status = (notification.cancelledAt != nil ? NotificationStatus.cancelled : counts.queued > 0 || notification.queuing ? .sending : .finished).rawValue
        retryingByReason = counts.retryingByReason
    }
}
