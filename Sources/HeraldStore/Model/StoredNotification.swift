import Foundation

/// A notification the server accepted: what to send (an opaque message the server encodes) and
/// to whom. Its deliveries are queued in the same transaction that stores it.
public struct StoredNotification: Sendable, Hashable, Codable {
    /// The server's id (a UUID string).
    public var id: String
    public var appID: String
    /// The message as the server encoded it (payload variants and headers, JSON).
    public var message: Data
    public var audience: Audience
    /// The sender's idempotency key: the same key within 24 hours gives back this notification.
    public var idempotencyKey: String?
    /// The schedule that produced it, if any.
    public var scheduleID: String?
    public var createdAt: Date
    /// Devices its audience came to when it was queued (so far, while ``queuing``): a device
    /// registered or removed while the audience is queued counts if the fan-out had not yet
    /// passed its token.
    public var audienceSize: Int
    /// When it was cancelled (``HeraldStore/cancel(appID:notificationID:now:)``), if it was.
    public var cancelledAt: Date?
    /// Its audience is still being queued (a fan-out under way, or left by a node that stopped
    /// and not yet taken up): read from the store, not kept in the stored body.
    public var queuing = false

    private enum CodingKeys: String, CodingKey {
        case id, appID, message, audience, idempotencyKey, scheduleID, createdAt, audienceSize, cancelledAt
    }

    public init(
        id: String, appID: String, message: Data, audience: Audience, idempotencyKey: String? = nil, scheduleID: String? = nil,
        createdAt: Date, audienceSize: Int = 0
    ) {
        self.id = id
        self.appID = appID
        self.message = message
        self.audience = audience
        self.idempotencyKey = idempotencyKey
        self.scheduleID = scheduleID
        self.createdAt = createdAt
        self.audienceSize = audienceSize
    }
}

/// What ``HeraldStore/enqueue(_:idempotencyWindow:)`` did.
public enum EnqueueOutcome: Sendable, Hashable {
    /// Stored, with this many deliveries queued.
    case created(StoredNotification)
    /// The idempotency key was used within the window: this is the earlier notification.
    case existing(StoredNotification)

    /// The notification either way.
    public var notification: StoredNotification {
        switch self {
        case .created(let notification), .existing(let notification): notification
        }
    }
}
