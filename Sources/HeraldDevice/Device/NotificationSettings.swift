/// What the user allowed an app (UNNotificationSettings).
public struct NotificationSettings: Sendable, Equatable {
    public enum Authorization: String, Sendable, Equatable, CaseIterable {
        /// The app has not asked yet: nothing is shown.
        case notDetermined = "not-determined"
        case denied
        case authorized
        /// Delivered quietly to the notification list, without banner or sound.
        case provisional
    }

    /// When the notification's text is shown (UNShowPreviewsSetting).
    public enum Previews: String, Sendable, Equatable, CaseIterable {
        case always
        /// Only while the device is unlocked (iOS's default).
        case whenUnlocked = "when-unlocked"
        case never
    }

    public var authorization: Authorization
    /// The alert switch: off, nothing is shown (banner, lock screen or Notification Center).
    public var alert: Bool
    public var sound: Bool
    public var badge: Bool
    /// Shown on the lock screen while the device is locked.
    public var lockScreen: Bool
    /// Kept in Notification Center.
    public var notificationCenter: Bool
    /// Critical alerts allowed (the app asked with the entitlement and the user agreed).
    public var criticalAlert: Bool
    public var previews: Previews

    public init(
        authorization: Authorization = .notDetermined, alert: Bool = true, sound: Bool = true, badge: Bool = true, lockScreen: Bool = true,
        notificationCenter: Bool = true, criticalAlert: Bool = false, previews: Previews = .whenUnlocked
    ) {
        self.authorization = authorization
        self.alert = alert
        self.sound = sound
        self.badge = badge
        self.lockScreen = lockScreen
        self.notificationCenter = notificationCenter
        self.criticalAlert = criticalAlert
        self.previews = previews
    }

    /// Whether the app may show anything at all.
    public var isAuthorized: Bool { authorization == .authorized || authorization == .provisional }

    /// The switches in one line, for the transcript.
    public var summary: String {
        "\(authorization.rawValue), alert \(alert), sound \(sound), badge \(badge), lock screen \(lockScreen), notification center \(notificationCenter)"
            + ", previews \(previews.rawValue)" + (criticalAlert ? ", critical alerts" : "")
    }

    /// Alerts, sounds and badges allowed.
    public static let granted = NotificationSettings(authorization: .authorized)

    /// Whether alerts reach the user at all (remote or local).
    public var allowsAlerts: Bool {
        isAuthorized && alert
    }
}

/// Whether the app is running, and where (UIApplication.State plus "not running").
public enum AppRunState: String, Sendable, Equatable, CaseIterable {
    case foreground
    case background
    case notRunning = "not-running"
}

/// How a notification is presented (UNNotificationPresentationOptions).
public struct PresentationOptions: OptionSet, Sendable, Equatable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let banner = PresentationOptions(rawValue: 1)
    public static let list = PresentationOptions(rawValue: 2)
    public static let sound = PresentationOptions(rawValue: 4)
    public static let badge = PresentationOptions(rawValue: 8)
    /// What the system does for an app that is not in the foreground.
    public static let all: PresentationOptions = [.banner, .list, .sound, .badge]

    static let names: [(PresentationOptions, String)] = [(.banner, "banner"), (.list, "list"), (.sound, "sound"), (.badge, "badge")]

    /// Parses `banner`, `list`, `sound`, `badge`, and the old `alert` (banner + list).
    public init(name: String) throws(DeviceError) {
        switch name.lowercased() {
        case "alert": self = [.banner, .list]
        case "none": self = []
        default:
            guard let match = Self.names.first(where: { $0.1 == name.lowercased() }) else {
                throw .invalid("unknown presentation option \"\(name)\"; use banner, list, sound, badge, alert or none")
            }
            self = match.0
        }
    }

    /// `banner,list,sound`, or `none`.
    public var description: String {
        let names = Self.names.filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }
}
