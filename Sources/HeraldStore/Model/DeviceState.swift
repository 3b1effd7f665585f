/// Whether notifications go to a registered token.
public enum DeviceState: String, Sendable, Hashable, Codable {
    /// Receives notifications.
    case active
    /// APNs answered 410 Unregistered (or the app unregistered it): nothing is sent until the app
    /// registers the token again.
    case unregistered
    /// APNs answered BadDeviceToken or DeviceTokenNotForTopic: flagged for review, not sent to.
    case invalid
}
