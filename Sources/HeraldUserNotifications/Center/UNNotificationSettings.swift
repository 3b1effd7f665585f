import Foundation
import HeraldCore
import HeraldDevice

/// What the user allows the app (Apple's `UNNotificationSettings`).
public class UNNotificationSettings: NSObject, @unchecked Sendable {
    public let authorizationStatus: UNAuthorizationStatus
    public let soundSetting: UNNotificationSetting
    public let badgeSetting: UNNotificationSetting
    public let alertSetting: UNNotificationSetting
    public let notificationCenterSetting: UNNotificationSetting
    public let lockScreenSetting: UNNotificationSetting
    public let carPlaySetting: UNNotificationSetting
    public let criticalAlertSetting: UNNotificationSetting
    public let announcementSetting: UNNotificationSetting
    public let timeSensitiveSetting: UNNotificationSetting
    public let scheduledDeliverySetting: UNNotificationSetting
    public let directMessagesSetting: UNNotificationSetting
    public let alertStyle: UNAlertStyle
    public let showPreviewsSetting: UNShowPreviewsSetting
    public let providesAppNotificationSettings: Bool

    init(device settings: NotificationSettings, requested: UNAuthorizationOptions, app: AppBundle) {
        switch settings.authorization {
        case .notDetermined: authorizationStatus = .notDetermined
        case .denied: authorizationStatus = .denied
        case .authorized: authorizationStatus = .authorized
        case .provisional: authorizationStatus = .provisional
        }
        let determined = settings.authorization != .notDetermined
        func setting(_ enabled: Bool, asked: Bool) -> UNNotificationSetting {
            guard determined, asked else { return .notSupported }
            return enabled && settings.authorization != .denied ? .enabled : .disabled
        }
        let asksAlerts = requested.contains(.alert) || requested.contains(.provisional)
        alertSetting = setting(settings.alert, asked: asksAlerts)
        soundSetting = setting(settings.sound, asked: requested.contains(.sound))
        badgeSetting = setting(settings.badge, asked: requested.contains(.badge))
        notificationCenterSetting = setting(settings.alert && settings.notificationCenter, asked: asksAlerts)
        lockScreenSetting = setting(settings.alert && settings.lockScreen && settings.authorization != .provisional, asked: asksAlerts)
        carPlaySetting = setting(true, asked: requested.contains(.carPlay))
        criticalAlertSetting = setting(settings.criticalAlert, asked: requested.contains(.criticalAlert) || settings.criticalAlert)
        announcementSetting = .notSupported
        timeSensitiveSetting = setting(app.hasEntitlement(InterruptionLevel.timeSensitive.requiredEntitlement!), asked: determined)
        scheduledDeliverySetting = .disabled
        directMessagesSetting = setting(app.hasEntitlement(Entitlement.communicationNotifications), asked: determined)
        alertStyle = alertSetting == .enabled && settings.authorization != .provisional ? .banner : .none
        showPreviewsSetting = switch settings.previews {
        case .always: .always
        case .whenUnlocked: .whenAuthenticated
        case .never: .never
        }
        providesAppNotificationSettings = requested.contains(.providesAppNotificationSettings)
        super.init()
    }
}
