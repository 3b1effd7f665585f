/// `aps.interruption-level`: how strongly the notification may interrupt the user (iOS 15+).
public struct InterruptionLevel: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Added to the list quietly: no sound, no lighting of the screen.
    public static let passive = InterruptionLevel(rawValue: "passive")
    /// The default.
    public static let active = InterruptionLevel(rawValue: "active")
    /// Breaks through Focus; needs the Time Sensitive Notifications entitlement.
    public static let timeSensitive = InterruptionLevel(rawValue: "time-sensitive")
    /// Breaks through mute and Focus; needs Apple's approved critical-alerts entitlement.
    public static let critical = InterruptionLevel(rawValue: "critical")

    /// The levels Apple defines.
    public static let known: [InterruptionLevel] = [.passive, .active, .timeSensitive, .critical]

    /// False for a value Apple does not define.
    public var isKnown: Bool { Self.known.contains(self) }

    /// The entitlement an app needs for this level, or `nil`; without it iOS shows the
    /// notification as active.
    public var requiredEntitlement: String? {
        switch self {
        case .timeSensitive: "com.apple.developer.usernotifications.time-sensitive"
        case .critical: "com.apple.developer.usernotifications.critical-alerts"
        default: nil
        }
    }

    public var description: String { rawValue }
}
