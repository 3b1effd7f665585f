/// What a registered token is for; each kind only receives its own push types.
public enum DeviceKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The app's regular token (alert, background and the other app push types).
    case alert
    /// A PushKit VoIP token.
    case voip
    /// A Live Activity's update token.
    case liveActivity = "liveactivity"
    /// The push-to-start token that starts Live Activities remotely.
    case pushToStart = "push-to-start"

    /// The allowed values, for error messages.
    public static var allowedValues: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
