import Foundation

/// A rate limit as a token bucket with a one-second burst, where a send may reserve tokens the
/// bucket does not have yet: it then waits until they would have accrued. The same arithmetic
/// runs in memory (``SQLiteStore``, one process) and in SQL (``PostgresStore``, shared by
/// every node).
public struct TokenBucket: Sendable, Hashable {
    public var tokens: Double
    public var updated: Date

    public init(tokens: Double, updated: Date) {
        self.tokens = tokens
        self.updated = updated
    }

    /// Reserves `count` sends at `perSecond`; returns how long to wait before sending them.
    public mutating func reserve(_ count: Int, perSecond: Int, now: Date) -> TimeInterval {
        let rate = Double(max(1, perSecond))
        tokens = min(rate, tokens + max(0, now.timeIntervalSince(updated)) * rate) - Double(count)
        updated = max(updated, now)
        return tokens < 0 ? -tokens / rate : 0
    }
}
