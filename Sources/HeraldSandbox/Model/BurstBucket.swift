import Foundation

/// A token bucket per device token: `capacity` pushes in a row, refilled at `capacity` per
/// `window` seconds. More than that is what APNs answers `TooManyRequests` to.
struct BurstBucket {
    var available: Double
    var updated: Date

    init(capacity: Int, now: Date) {
        self.available = Double(capacity)
        self.updated = now
    }

    /// Takes one push if one is available.
    mutating func take(at now: Date, capacity: Int, window: TimeInterval) -> Bool {
        let elapsed = max(0, now.timeIntervalSince(updated))
        available = min(Double(capacity), available + elapsed * Double(capacity) / max(window, 0.001))
        updated = now
        guard available >= 1 else { return false }
        available -= 1
        return true
    }
}
