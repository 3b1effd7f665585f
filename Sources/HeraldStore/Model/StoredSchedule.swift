import Foundation

/// A notification to send later or repeatedly. The trigger and message are the server's own
/// encoding; the store keeps when it is next due and, for wall-clock triggers, up to when each
/// time zone was served.
public struct StoredSchedule: Sendable, Hashable, Codable {
    /// The caller's identifier, unique per app (replacing reuses it, as iOS's pending requests).
    public var id: String
    public var appID: String
    /// The trigger as the server encoded it.
    public var trigger: Data
    /// The message and audience as the server encoded them.
    public var request: Data
    /// The next time the scheduler must look at it.
    public var nextCheckAt: Date
    /// Per time zone identifier: the last wall-clock occurrence already fired.
    public var firedThrough: [String: Date]
    /// Times it fired.
    public var fireCount: Int
    public var createdAt: Date

    public init(
        id: String, appID: String, trigger: Data, request: Data, nextCheckAt: Date, firedThrough: [String: Date] = [:],
        fireCount: Int = 0, createdAt: Date
    ) {
        self.id = id
        self.appID = appID
        self.trigger = trigger
        self.request = request
        self.nextCheckAt = nextCheckAt
        self.firedThrough = firedThrough
        self.fireCount = fireCount
        self.createdAt = createdAt
    }
}
