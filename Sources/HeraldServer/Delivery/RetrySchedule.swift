import Foundation
import HeraldCore

/// When a delivery that failed for a passing reason (no answer, 429, 500, 503) is tried again:
/// exponential back-off with jitter, for as long as the notification may still be delivered,
/// its `apns-expiration`, or ``maximumAge`` after it was queued when it has none.
public struct RetrySchedule: Sendable, Hashable {
    /// The wait after the first failed attempt; it doubles after each further one.
    public var initialBackoff: TimeInterval
    public var maximumBackoff: TimeInterval
    /// How long a notification without an expiration keeps being retried.
    public var maximumAge: TimeInterval

    /// When to try again after `attempts` attempts, or nil when the notification may not be
    /// delivered by then (give up). `jitter` (0…1) picks a point in the upper half of the wait,
    /// so deliveries that failed together do not all come back at once.
    func nextAttempt(after attempts: Int, queuedAt: Date, expiration: Expiration, now: Date, jitter: Double) -> Date? {
        let exponent = Double(min(max(attempts - 1, 0), 30))
        let bound = min(maximumBackoff, initialBackoff * pow(2, exponent))
        let next = now.addingTimeInterval(bound * (0.5 + 0.5 * jitter))
        return next <= deadline(queuedAt: queuedAt, expiration: expiration) ? next : nil
    }

    /// "Deliver now or never" (`apns-expiration: 0`) is retried this long at most: APNs never
    /// saw it, so a short outage still counts as "now", an hour does not.
    public var immediateWindow: TimeInterval

    public init(initialBackoff: TimeInterval = 1, maximumBackoff: TimeInterval = 300, maximumAge: TimeInterval = 86_400, immediateWindow: TimeInterval = 300) {
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.maximumAge = maximumAge
        self.immediateWindow = immediateWindow
    }

    /// The last moment the notification may be sent.
    func deadline(queuedAt: Date, expiration: Expiration) -> Date {
        switch expiration {
        case .at(let date): date
        case .immediately: queuedAt.addingTimeInterval(min(maximumAge, immediateWindow))
        case .none: queuedAt.addingTimeInterval(maximumAge)
        }
    }
}
