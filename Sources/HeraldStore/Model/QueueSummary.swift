import Foundation

/// The delivery queue at a glance (readiness checks and `/ready`).
public struct QueueSummary: Sendable, Hashable {
    /// Deliveries queued, leased or not, retrying or not.
    public var depth: Int
    /// Of those, deliveries waiting for a retry after an attempt that did not go through.
    public var retrying: Int
    /// When the oldest queued delivery was queued (nil: the queue is empty).
    public var oldestQueuedAt: Date?

    public init(depth: Int, retrying: Int, oldestQueuedAt: Date?) {
        self.depth = depth
        self.retrying = retrying
        self.oldestQueuedAt = oldestQueuedAt
    }
}
