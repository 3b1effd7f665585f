import Foundation
import HeraldCore

/// What became of one notification.
public struct APNsResult: Sendable, Hashable {
    /// The device token it was sent to.
    public var deviceToken: DeviceToken
    /// The `apns-id` the notification was sent with, if it set one (bulk senders use it to match
    /// results, which come in any order, to what they sent).
    public var requestedID: NotificationID?
    /// The HTTP status of the last answer, or `nil` when no answer came (see ``failure``).
    public var status: Int?
    /// The `apns-id` APNs answered with (the one sent, or one it made).
    public var apnsID: String?
    /// The `apns-unique-id` (development environment only).
    public var uniqueID: String?
    /// Why APNs refused it.
    public var reason: APNsReason?
    /// For 410: when APNs learned the token stopped being valid.
    public var timestamp: Date?
    /// The same moment as APNs sent it, in milliseconds since 1970.
    public var timestampMilliseconds: Int64?
    /// Herald's own explanation of the answer, when it knows more than the reason says (an
    /// `ExpiredProviderToken` for a token this machine minted minutes ago: the clocks disagree).
    public var detail: String?
    /// Why no answer came (timeout, connection failure), when none did.
    public var failure: APNsClientError?
    /// Attempts made, the first included.
    public var attempts: Int
    /// From the first attempt to the last answer.
    public var latency: Duration

    /// True for a 200 answer.
    public var isSuccess: Bool { status == 200 }

    /// What to do with the device token, from the reason (410 without a known reason: deactivate).
    public var tokenAction: APNsReason.TokenAction {
        guard let status, status != 200 else { return .keep }
        return (reason ?? APNsReason(rawValue: "")).tokenAction(status: status)
    }
}
