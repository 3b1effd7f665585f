import Foundation
import HeraldCore

/// Where a queued delivery stands.
public enum DeliveryState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Waiting for a worker (or leased by one).
    case queued
    /// APNs accepted it (200).
    case sent
    /// APNs refused it, or it could not be sent.
    case failed
    /// Its expiration passed before it was sent; never sent.
    case expired
    /// Its notification was cancelled before it was sent; never sent.
    case cancelled

    /// The allowed values, for error messages.
    public static var allowedValues: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// A queued delivery a worker took: one notification to one token.
public struct ClaimedDelivery: Sendable, Hashable {
    /// The queue row.
    public var id: Int64
    public var notificationID: String
    public var appID: String
    public var token: String
    public var environment: APNsEnvironment
    /// The device's locale, for the message's variant.
    public var locale: String?
    /// Attempts so far, this one included.
    public var attempts: Int
    /// When it was queued: a delivery that keeps failing for passing reasons is retried for a
    /// bounded time from here.
    public var queuedAt: Date

    public init(
        id: Int64, notificationID: String, appID: String, token: String, environment: APNsEnvironment, locale: String?, attempts: Int, queuedAt: Date
    ) {
        self.queuedAt = queuedAt
        self.id = id
        self.notificationID = notificationID
        self.appID = appID
        self.token = token
        self.environment = environment
        self.locale = locale
        self.attempts = attempts
    }
}

/// What became of a claimed delivery.
public struct DeliveryOutcome: Sendable, Hashable {
    public var id: Int64
    public var state: DeliveryState
    /// The HTTP status APNs answered, if it answered.
    public var status: Int?
    /// APNs' reason, or why there was no answer.
    public var reason: String?
    /// The `apns-id` APNs answered with, when it is not the one the sender derives from the
    /// notification and the token (nil: that one, or none was sent).
    public var apnsID: String?
    public var finishedAt: Date
    /// For a delivery that stays queued (state ``DeliveryState/queued``): when it may be claimed
    /// again. Its `reason` and `status` say why the last attempt did not go through.
    public var retryAt: Date?
    /// Whether the claim was an attempt: false when the delivery was put back without being
    /// sent (APNs known to be unreachable), so its attempts are not counted up.
    public var attempted: Bool

    /// A send APNs accepted with the derived apns-id: stores record runs of these with one
    /// statement.
    public var isPlainSend: Bool { state == .sent && reason == nil && apnsID == nil }

    public init(
        id: Int64, state: DeliveryState, status: Int? = nil, reason: String? = nil, apnsID: String? = nil, finishedAt: Date, retryAt: Date? = nil,
        attempted: Bool = true
    ) {
        self.id = id
        self.state = state
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.finishedAt = finishedAt
        self.retryAt = retryAt
        self.attempted = attempted
    }

    /// A delivery left queued, to be claimed again at `at`: `reason` is why this claim did not
    /// deliver it.
    public static func retry(id: Int64, at: Date, reason: String, status: Int? = nil, now: Date, attempted: Bool = true) -> DeliveryOutcome {
        DeliveryOutcome(id: id, state: .queued, status: status, reason: reason, finishedAt: now, retryAt: at, attempted: attempted)
    }
}

/// One delivery as a report shows it.
public struct DeliveryRecord: Sendable, Hashable, Codable {
    /// The queue row: increasing, so pages of a report follow it.
    public var id: Int64
    public var notificationID: String
    public var token: String
    public var state: DeliveryState
    public var status: Int?
    public var reason: String?
    public var apnsID: String?
    public var attempts: Int
    public var queuedAt: Date
    public var finishedAt: Date?
    /// For a queued delivery being retried: when it is next sent (its `reason` says why the
    /// last attempt failed).
    public var nextAttemptAt: Date?

    public init(
        id: Int64, notificationID: String, token: String, state: DeliveryState, status: Int?, reason: String?, apnsID: String?, attempts: Int,
        queuedAt: Date, finishedAt: Date?, nextAttemptAt: Date? = nil
    ) {
        self.id = id
        self.nextAttemptAt = nextAttemptAt
        self.notificationID = notificationID
        self.token = token
        self.state = state
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.attempts = attempts
        self.queuedAt = queuedAt
        self.finishedAt = finishedAt
    }
}

/// A notification's deliveries counted.
public struct DeliveryCounts: Sendable, Hashable, Codable {
    public var queued = 0
    /// Of the queued, those waiting to be retried after an attempt that did not go through, by
    /// the last attempt's reason.
    public var retryingByReason: [String: Int] = [:]
    public var sent = 0
    public var failed = 0
    public var expired = 0
    /// Never sent because the notification was cancelled.
    public var cancelled = 0
    /// Failures by APNs reason (or failure kind).
    public var failedByReason: [String: Int] = [:]

    public init() {}

    /// Every delivery counted.
    public var total: Int { queued + sent + failed + expired + cancelled }
}
