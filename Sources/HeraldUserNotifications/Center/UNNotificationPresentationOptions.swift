import HeraldDevice

/// How a notification that arrives while the app is in the foreground is presented (Apple's
/// `UNNotificationPresentationOptions`).
public struct UNNotificationPresentationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
    public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
    @available(*, deprecated, message: "Use banner and list (iOS 14)")
    public static let alert = UNNotificationPresentationOptions(rawValue: 1 << 2)
    public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
    public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)

    var deviceOptions: PresentationOptions {
        var options: PresentationOptions = []
        if contains(.badge) { options.insert(.badge) }
        if contains(.sound) { options.insert(.sound) }
        if contains(UNNotificationPresentationOptions(rawValue: 1 << 2)) { options.formUnion([.banner, .list]) }
        if contains(.list) { options.insert(.list) }
        if contains(.banner) { options.insert(.banner) }
        return options
    }
}
