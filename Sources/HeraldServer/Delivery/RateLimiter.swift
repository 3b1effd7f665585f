import Foundation
import HeraldCore
import Synchronization

/// Per-app token buckets: an app with a rate limit sends at most that many notifications per
/// second (with a one-second burst); callers wait for their turn.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let buckets = Mutex<[String: Bucket]>([:])

    /// Waits until `count` notifications of `appID` may go at `perSecond`.
    func acquire(appID: String, count: Int, perSecond: Int) async {
        var remaining = Double(count)
        let rate = Double(perSecond)
        while remaining > 0 {
            let wait: Double = buckets.withLock { buckets in
                let now = ContinuousClock.now
                var bucket = buckets[appID] ?? Bucket(tokens: rate, updated: now)
                let elapsed = (now - bucket.updated).inSeconds
                bucket.tokens = min(rate, bucket.tokens + elapsed * rate)
                bucket.updated = now
                let taken = min(bucket.tokens, remaining)
                bucket.tokens -= taken
                remaining -= taken
                buckets[appID] = bucket
                return remaining > 0 ? min(remaining, rate) / rate : 0
            }
            if wait > 0 { try? await Task.sleep(for: .milliseconds(max(1, Int(wait * 1000)))) }
        }
    }
}
