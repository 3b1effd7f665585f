/// Whether notifications go to a registered token.
public enum DeviceState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Receives notifications.
    case active
    /// APNs answered 410 Unregistered (or the app unregistered it): nothing is sent until the app
    /// registers the token again.
    case unregistered
    /// APNs answered BadDeviceToken or DeviceTokenNotForTopic: flagged for review, not sent to.
    case invalid

    /// The allowed values, for error messages.
    public static var allowedValues: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
