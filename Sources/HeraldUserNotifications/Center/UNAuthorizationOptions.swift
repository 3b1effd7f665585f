/// What an app asks the user to allow (Apple's `UNAuthorizationOptions`).
public struct UNAuthorizationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
    public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)
    public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)
    public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)
    /// Delivered quietly without asking the user first.
    public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
    @available(*, deprecated, message: "Apple grants announcement with Siri since iOS 15")
    public static let announcement = UNAuthorizationOptions(rawValue: 1 << 7)
    @available(*, deprecated, message: "Use the Time Sensitive Notifications capability")
    public static let timeSensitive = UNAuthorizationOptions(rawValue: 1 << 8)
}

/// Whether the app may post notifications (Apple's `UNAuthorizationStatus`).
public enum UNAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case denied = 1
    case authorized = 2
    case provisional = 3
    case ephemeral = 4
}

/// The state of one notification setting (Apple's `UNNotificationSetting`).
public enum UNNotificationSetting: Int, Sendable {
    /// The app did not ask for it.
    case notSupported = 0
    case disabled = 1
    case enabled = 2
}

/// How alerts look when the device is unlocked (Apple's `UNAlertStyle`).
public enum UNAlertStyle: Int, Sendable {
    case none = 0
    case banner = 1
    case alert = 2
}

/// When previews show the notification's text (Apple's `UNShowPreviewsSetting`).
public enum UNShowPreviewsSetting: Int, Sendable {
    case always = 0
    case whenAuthenticated = 1
    case never = 2
}
