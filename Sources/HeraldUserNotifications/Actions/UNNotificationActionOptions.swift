/// How an action behaves (Apple's `UNNotificationActionOptions`).
public struct UNNotificationActionOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Performed only on an unlocked device.
    public static let authenticationRequired = UNNotificationActionOptions(rawValue: 1 << 0)
    /// Shown in red.
    public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)
    /// Opens the app in the foreground.
    public static let foreground = UNNotificationActionOptions(rawValue: 1 << 2)
}
