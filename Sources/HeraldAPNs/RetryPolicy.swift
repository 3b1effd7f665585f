/// When a notification is sent again: 429, 500 and 503 answers and transport failures are retried
/// after an exponential back-off with full jitter, up to ``maximumAttempts`` attempts in all.
/// Answers APNs says can never succeed are not retried; `ExpiredProviderToken` is retried once
/// with a new token; a notification a closing connection never processed is resent on another
/// connection and not counted as an attempt (at once the first three times, after a back-off
/// later, at most twenty times, and not after the request timeout × the attempts). A request that waited its whole timeout for a stream the server's limit
/// would not give counts as an attempt.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included (1 = never retry).
    public var maximumAttempts: Int
    /// The back-off before the second attempt; it doubles for each later one.
    public var initialBackoff: Duration
    /// The longest back-off.
    public var maximumBackoff: Duration

    public init(maximumAttempts: Int = 3, initialBackoff: Duration = .milliseconds(100), maximumBackoff: Duration = .seconds(5)) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }

    /// No retries at all.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// The wait before attempt `attempt + 1` (attempt counts from 1): a random time between zero
    /// and the exponential bound ("full jitter"), so many clients do not retry in step.
    public func backoff(after attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let bound = min(initialBackoff * (1 << exponent), maximumBackoff)
        let nanoseconds = bound.components.seconds * 1_000_000_000 + bound.components.attoseconds / 1_000_000_000
        guard nanoseconds > 0 else { return .zero }
        return .nanoseconds(Int64.random(in: 0...nanoseconds, using: &generator))
    }
}
