import Foundation
import HeraldUserNotifications
import Testing

/// Compile-time checks of the Apple declarations listed in docs/apple/UserNotifications-API.md.
/// Each `// apple:` line quotes one bullet of that list, and the statement after it names the
/// module's declaration with its full type, so a different label, parameter type, return type,
/// `throws` or `async` breaks the build. Protocol requirements are implemented by a conforming
/// class with Apple's exact signature, and each body also forms a call of the requirement
/// through the protocol, because the module's default implementations would otherwise keep a
/// renamed requirement from being noticed. Nothing here runs: the test at the end only checks
/// that the list and these comments name the same declarations.
enum AppleDeclarationChecks {
    // MARK: - UNUserNotificationCenter

    static func centerChecks() {
        // apple: class UNUserNotificationCenter
        _ = UNUserNotificationCenter.self
        // apple: class func current() -> UNUserNotificationCenter
        let _: () -> UNUserNotificationCenter = UNUserNotificationCenter.current
        // apple: weak var delegate: (any UNUserNotificationCenterDelegate)? { get set }
        let _: ReferenceWritableKeyPath<UNUserNotificationCenter, (any UNUserNotificationCenterDelegate)?> = \UNUserNotificationCenter.delegate
        // apple: var supportsContentExtensions: Bool { get }
        let _: KeyPath<UNUserNotificationCenter, Bool> = \UNUserNotificationCenter.supportsContentExtensions
        // apple: func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool
        let _: (UNUserNotificationCenter) -> (UNAuthorizationOptions) async throws -> Bool = UNUserNotificationCenter.requestAuthorization(options:)
        // apple: func notificationSettings() async -> UNNotificationSettings
        let _: (UNUserNotificationCenter) -> () async -> UNNotificationSettings = UNUserNotificationCenter.notificationSettings
        // apple: func add(_ request: UNNotificationRequest) async throws
        let _: (UNUserNotificationCenter) -> (UNNotificationRequest) async throws -> Void = UNUserNotificationCenter.add(_:)
        // apple: func pendingNotificationRequests() async -> [UNNotificationRequest]
        let _: (UNUserNotificationCenter) -> () async -> [UNNotificationRequest] = UNUserNotificationCenter.pendingNotificationRequests
        // apple: func requestAuthorization(options: UNAuthorizationOptions = [], completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void)
        let _: (UNUserNotificationCenter) -> (UNAuthorizationOptions, @escaping @Sendable (Bool, (any Error)?) -> Void) -> Void = UNUserNotificationCenter.requestAuthorization(options:completionHandler:)
        // apple: func getNotificationSettings(completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void)
        let _: (UNUserNotificationCenter) -> (@escaping @Sendable (UNNotificationSettings) -> Void) -> Void = UNUserNotificationCenter.getNotificationSettings(completionHandler:)
        // apple: func add(_ request: UNNotificationRequest, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil)
        let _: (UNUserNotificationCenter) -> (UNNotificationRequest, (@Sendable ((any Error)?) -> Void)?) -> Void = UNUserNotificationCenter.add(_:withCompletionHandler:)
        // apple: func getPendingNotificationRequests(completionHandler: @escaping @Sendable ([UNNotificationRequest]) -> Void)
        let _: (UNUserNotificationCenter) -> (@escaping @Sendable ([UNNotificationRequest]) -> Void) -> Void = UNUserNotificationCenter.getPendingNotificationRequests(completionHandler:)
        // apple: func getDeliveredNotifications(completionHandler: @escaping @Sendable ([UNNotification]) -> Void)
        let _: (UNUserNotificationCenter) -> (@escaping @Sendable ([UNNotification]) -> Void) -> Void = UNUserNotificationCenter.getDeliveredNotifications(completionHandler:)
        // apple: func getNotificationCategories(completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void)
        let _: (UNUserNotificationCenter) -> (@escaping @Sendable (Set<UNNotificationCategory>) -> Void) -> Void = UNUserNotificationCenter.getNotificationCategories(completionHandler:)
        // apple: func setBadgeCount(_ newBadgeCount: Int, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil)
        let _: (UNUserNotificationCenter) -> (Int, (@Sendable ((any Error)?) -> Void)?) -> Void = UNUserNotificationCenter.setBadgeCount(_:withCompletionHandler:)
        // apple: func removePendingNotificationRequests(withIdentifiers identifiers: [String])
        let _: (UNUserNotificationCenter) -> ([String]) -> Void = UNUserNotificationCenter.removePendingNotificationRequests(withIdentifiers:)
        // apple: func removeAllPendingNotificationRequests()
        let _: (UNUserNotificationCenter) -> () -> Void = UNUserNotificationCenter.removeAllPendingNotificationRequests
        // apple: func deliveredNotifications() async -> [UNNotification]
        let _: (UNUserNotificationCenter) -> () async -> [UNNotification] = UNUserNotificationCenter.deliveredNotifications
        // apple: func removeDeliveredNotifications(withIdentifiers identifiers: [String])
        let _: (UNUserNotificationCenter) -> ([String]) -> Void = UNUserNotificationCenter.removeDeliveredNotifications(withIdentifiers:)
        // apple: func removeAllDeliveredNotifications()
        let _: (UNUserNotificationCenter) -> () -> Void = UNUserNotificationCenter.removeAllDeliveredNotifications
        // apple: func setNotificationCategories(_ categories: Set<UNNotificationCategory>)
        let _: (UNUserNotificationCenter) -> (Set<UNNotificationCategory>) -> Void = UNUserNotificationCenter.setNotificationCategories(_:)
        // apple: func notificationCategories() async -> Set<UNNotificationCategory>
        let _: (UNUserNotificationCenter) -> () async -> Set<UNNotificationCategory> = UNUserNotificationCenter.notificationCategories
        // apple: func setBadgeCount(_ newBadgeCount: Int) async throws
        let _: (UNUserNotificationCenter) -> (Int) async throws -> Void = UNUserNotificationCenter.setBadgeCount(_:)
    }

    // MARK: - UNUserNotificationCenterDelegate

    static func centerDelegateChecks() {
        // apple: protocol UNUserNotificationCenterDelegate : NSObjectProtocol
        let _: (any UNUserNotificationCenterDelegate) -> any NSObjectProtocol = { $0 }
    }

    private final class CenterDelegateCheck: NSObject, UNUserNotificationCenterDelegate {
        // apple: func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification, withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void)
        func userNotificationCenter(
            _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
            withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
        ) {
            let _: (any UNUserNotificationCenterDelegate, UNUserNotificationCenter, UNNotification,
                    @escaping @Sendable (UNNotificationPresentationOptions) -> Void) -> Void = {
                $0.userNotificationCenter($1, willPresent: $2, withCompletionHandler: $3)
            }
            completionHandler([])
        }

        // apple: func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions
        func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions {
            let _: (any UNUserNotificationCenterDelegate, UNUserNotificationCenter, UNNotification) async -> UNNotificationPresentationOptions = {
                await $0.userNotificationCenter($1, willPresent: $2)
            }
            return []
        }

        // apple: func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping @Sendable () -> Void)
        func userNotificationCenter(
            _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
            withCompletionHandler completionHandler: @escaping @Sendable () -> Void
        ) {
            let _: (any UNUserNotificationCenterDelegate, UNUserNotificationCenter, UNNotificationResponse,
                    @escaping @Sendable () -> Void) -> Void = {
                $0.userNotificationCenter($1, didReceive: $2, withCompletionHandler: $3)
            }
            completionHandler()
        }

        // apple: func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async
        func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
            let _: (any UNUserNotificationCenterDelegate, UNUserNotificationCenter, UNNotificationResponse) async -> Void = {
                await $0.userNotificationCenter($1, didReceive: $2)
            }
        }

        // apple: func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?)
        func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?) {
            let _: (any UNUserNotificationCenterDelegate, UNUserNotificationCenter, UNNotification?) -> Void = {
                $0.userNotificationCenter($1, openSettingsFor: $2)
            }
        }
    }

    // MARK: - UNAuthorizationOptions

    @available(*, deprecated, message: "also checks the options Apple deprecated")
    static func authorizationOptionsChecks() {
        // apple: struct UNAuthorizationOptions
        _ = UNAuthorizationOptions.self
        // apple: static var alert: UNAuthorizationOptions { get }
        let _: UNAuthorizationOptions = .alert
        // apple: static var badge: UNAuthorizationOptions { get }
        let _: UNAuthorizationOptions = .badge
        // apple: static var sound: UNAuthorizationOptions { get }
        let _: UNAuthorizationOptions = .sound
        // apple: static var carPlay: UNAuthorizationOptions { get }
        let _: UNAuthorizationOptions = .carPlay
        // apple: static var criticalAlert: UNAuthorizationOptions { get }
        let _: UNAuthorizationOptions = .criticalAlert
        // apple: static var providesAppNotificationSettings: UNAuthorizationOptions { get }
        let _: UNAuthorizationOptions = .providesAppNotificationSettings
        // apple: static var provisional: UNAuthorizationOptions { get }
        let _: UNAuthorizationOptions = .provisional
        // apple: static var announcement: UNAuthorizationOptions { get }
        let _: UNAuthorizationOptions = .announcement
        // apple: static var timeSensitive: UNAuthorizationOptions { get }
        let _: UNAuthorizationOptions = .timeSensitive
    }

    // MARK: - UNAuthorizationStatus

    static func authorizationStatusChecks() {
        // apple: enum UNAuthorizationStatus
        _ = UNAuthorizationStatus.self
        // apple: case notDetermined
        let _: UNAuthorizationStatus = .notDetermined
        // apple: case denied
        let _: UNAuthorizationStatus = .denied
        // apple: case authorized
        let _: UNAuthorizationStatus = .authorized
        // apple: case provisional
        let _: UNAuthorizationStatus = .provisional
        // apple: case ephemeral
        let _: UNAuthorizationStatus = .ephemeral
    }

    // MARK: - UNNotificationSetting

    static func notificationSettingChecks() {
        // apple: enum UNNotificationSetting
        _ = UNNotificationSetting.self
        // apple: case notSupported
        let _: UNNotificationSetting = .notSupported
        // apple: case disabled
        let _: UNNotificationSetting = .disabled
        // apple: case enabled
        let _: UNNotificationSetting = .enabled
    }

    // MARK: - UNAlertStyle

    static func alertStyleChecks() {
        // apple: enum UNAlertStyle
        _ = UNAlertStyle.self
        // apple: case none
        let _: UNAlertStyle = .none
        // apple: case banner
        let _: UNAlertStyle = .banner
        // apple: case alert
        let _: UNAlertStyle = .alert
    }

    // MARK: - UNShowPreviewsSetting

    static func showPreviewsSettingChecks() {
        // apple: enum UNShowPreviewsSetting
        _ = UNShowPreviewsSetting.self
        // apple: case always
        let _: UNShowPreviewsSetting = .always
        // apple: case whenAuthenticated
        let _: UNShowPreviewsSetting = .whenAuthenticated
        // apple: case never
        let _: UNShowPreviewsSetting = .never
    }

    // MARK: - UNNotificationSettings

    static func settingsChecks() {
        // apple: class UNNotificationSettings
        _ = UNNotificationSettings.self
        // apple: var authorizationStatus: UNAuthorizationStatus { get }
        let _: KeyPath<UNNotificationSettings, UNAuthorizationStatus> = \UNNotificationSettings.authorizationStatus
        // apple: var alertSetting: UNNotificationSetting { get }
        let _: KeyPath<UNNotificationSettings, UNNotificationSetting> = \UNNotificationSettings.alertSetting
        // apple: var alertStyle: UNAlertStyle { get }
        let _: KeyPath<UNNotificationSettings, UNAlertStyle> = \UNNotificationSettings.alertStyle
        // apple: var badgeSetting: UNNotificationSetting { get }
        let _: KeyPath<UNNotificationSettings, UNNotificationSetting> = \UNNotificationSettings.badgeSetting
        // apple: var soundSetting: UNNotificationSetting { get }
        let _: KeyPath<UNNotificationSettings, UNNotificationSetting> = \UNNotificationSettings.soundSetting
        // apple: var lockScreenSetting: UNNotificationSetting { get }
        let _: KeyPath<UNNotificationSettings, UNNotificationSetting> = \UNNotificationSettings.lockScreenSetting
        // apple: var notificationCenterSetting: UNNotificationSetting { get }
        let _: KeyPath<UNNotificationSettings, UNNotificationSetting> = \UNNotificationSettings.notificationCenterSetting
        // apple: var carPlaySetting: UNNotificationSetting { get }
        let _: KeyPath<UNNotificationSettings, UNNotificationSetting> = \UNNotificationSettings.carPlaySetting
        // apple: var criticalAlertSetting: UNNotificationSetting { get }
        let _: KeyPath<UNNotificationSettings, UNNotificationSetting> = \UNNotificationSettings.criticalAlertSetting
        // apple: var announcementSetting: UNNotificationSetting { get }
        let _: KeyPath<UNNotificationSettings, UNNotificationSetting> = \UNNotificationSettings.announcementSetting
        // apple: var directMessagesSetting: UNNotificationSetting { get }
        let _: KeyPath<UNNotificationSettings, UNNotificationSetting> = \UNNotificationSettings.directMessagesSetting
        // apple: var showPreviewsSetting: UNShowPreviewsSetting { get }
        let _: KeyPath<UNNotificationSettings, UNShowPreviewsSetting> = \UNNotificationSettings.showPreviewsSetting
        // apple: var timeSensitiveSetting: UNNotificationSetting { get }
        let _: KeyPath<UNNotificationSettings, UNNotificationSetting> = \UNNotificationSettings.timeSensitiveSetting
        // apple: var scheduledDeliverySetting: UNNotificationSetting { get }
        let _: KeyPath<UNNotificationSettings, UNNotificationSetting> = \UNNotificationSettings.scheduledDeliverySetting
        // apple: var providesAppNotificationSettings: Bool { get }
        let _: KeyPath<UNNotificationSettings, Bool> = \UNNotificationSettings.providesAppNotificationSettings
    }

    // MARK: - UNNotificationContent

    @available(*, deprecated, message: "also checks the summary argument Apple deprecated")
    static func contentChecks() {
        // apple: class UNNotificationContent
        _ = UNNotificationContent.self
        // apple: var title: String { get }
        let _: KeyPath<UNNotificationContent, String> = \UNNotificationContent.title
        // apple: var subtitle: String { get }
        let _: KeyPath<UNNotificationContent, String> = \UNNotificationContent.subtitle
        // apple: var body: String { get }
        let _: KeyPath<UNNotificationContent, String> = \UNNotificationContent.body
        // apple: @NSCopying var badge: NSNumber? { get }
        let _: KeyPath<UNNotificationContent, NSNumber?> = \UNNotificationContent.badge
        // apple: @NSCopying var sound: UNNotificationSound? { get }
        let _: KeyPath<UNNotificationContent, UNNotificationSound?> = \UNNotificationContent.sound
        // apple: var userInfo: [AnyHashable : Any] { get }
        let _: KeyPath<UNNotificationContent, [AnyHashable: Any]> = \UNNotificationContent.userInfo
        // apple: var attachments: [UNNotificationAttachment] { get }
        let _: KeyPath<UNNotificationContent, [UNNotificationAttachment]> = \UNNotificationContent.attachments
        // apple: var categoryIdentifier: String { get }
        let _: KeyPath<UNNotificationContent, String> = \UNNotificationContent.categoryIdentifier
        // apple: var threadIdentifier: String { get }
        let _: KeyPath<UNNotificationContent, String> = \UNNotificationContent.threadIdentifier
        // apple: var launchImageName: String { get }
        let _: KeyPath<UNNotificationContent, String> = \UNNotificationContent.launchImageName
        // apple: var targetContentIdentifier: String? { get }
        let _: KeyPath<UNNotificationContent, String?> = \UNNotificationContent.targetContentIdentifier
        // apple: var interruptionLevel: UNNotificationInterruptionLevel { get }
        let _: KeyPath<UNNotificationContent, UNNotificationInterruptionLevel> = \UNNotificationContent.interruptionLevel
        // apple: var relevanceScore: Double { get }
        let _: KeyPath<UNNotificationContent, Double> = \UNNotificationContent.relevanceScore
        // apple: var filterCriteria: String? { get }
        let _: KeyPath<UNNotificationContent, String?> = \UNNotificationContent.filterCriteria
        // apple: var summaryArgument: String { get }
        let _: KeyPath<UNNotificationContent, String> = \UNNotificationContent.summaryArgument
        // apple: var summaryArgumentCount: Int { get }
        let _: KeyPath<UNNotificationContent, Int> = \UNNotificationContent.summaryArgumentCount
        // apple: func updating(from provider: any UNNotificationContentProviding) throws -> UNNotificationContent
        let _: (UNNotificationContent) -> (any UNNotificationContentProviding) throws -> UNNotificationContent = UNNotificationContent.updating(from:)
    }

    // MARK: - UNMutableNotificationContent

    @available(*, deprecated, message: "also checks the summary argument Apple deprecated")
    static func mutableContentChecks() {
        // apple: class UNMutableNotificationContent
        _ = UNMutableNotificationContent.self
        // apple: init()
        let _: () -> UNMutableNotificationContent = UNMutableNotificationContent.init
        // apple: var title: String { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, String> = \UNMutableNotificationContent.title
        // apple: var subtitle: String { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, String> = \UNMutableNotificationContent.subtitle
        // apple: var body: String { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, String> = \UNMutableNotificationContent.body
        // apple: @NSCopying var badge: NSNumber? { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, NSNumber?> = \UNMutableNotificationContent.badge
        // apple: @NSCopying var sound: UNNotificationSound? { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, UNNotificationSound?> = \UNMutableNotificationContent.sound
        // apple: var userInfo: [AnyHashable : Any] { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, [AnyHashable: Any]> = \UNMutableNotificationContent.userInfo
        // apple: var attachments: [UNNotificationAttachment] { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, [UNNotificationAttachment]> = \UNMutableNotificationContent.attachments
        // apple: var categoryIdentifier: String { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, String> = \UNMutableNotificationContent.categoryIdentifier
        // apple: var threadIdentifier: String { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, String> = \UNMutableNotificationContent.threadIdentifier
        // apple: var launchImageName: String { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, String> = \UNMutableNotificationContent.launchImageName
        // apple: var targetContentIdentifier: String? { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, String?> = \UNMutableNotificationContent.targetContentIdentifier
        // apple: var interruptionLevel: UNNotificationInterruptionLevel { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, UNNotificationInterruptionLevel> = \UNMutableNotificationContent.interruptionLevel
        // apple: var relevanceScore: Double { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, Double> = \UNMutableNotificationContent.relevanceScore
        // apple: var filterCriteria: String? { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, String?> = \UNMutableNotificationContent.filterCriteria
        // apple: var summaryArgument: String { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, String> = \UNMutableNotificationContent.summaryArgument
        // apple: var summaryArgumentCount: Int { get set }
        let _: ReferenceWritableKeyPath<UNMutableNotificationContent, Int> = \UNMutableNotificationContent.summaryArgumentCount
    }

    // MARK: - UNNotificationContentProviding

    static func contentProvidingChecks() {
        // apple: protocol UNNotificationContentProviding : NSObjectProtocol
        let _: (any UNNotificationContentProviding) -> any NSObjectProtocol = { $0 }
    }

    // MARK: - UNNotificationInterruptionLevel

    static func interruptionLevelChecks() {
        // apple: enum UNNotificationInterruptionLevel
        _ = UNNotificationInterruptionLevel.self
        // apple: case passive
        let _: UNNotificationInterruptionLevel = .passive
        // apple: case active
        let _: UNNotificationInterruptionLevel = .active
        // apple: case timeSensitive
        let _: UNNotificationInterruptionLevel = .timeSensitive
        // apple: case critical
        let _: UNNotificationInterruptionLevel = .critical
    }

    // MARK: - UNNotificationSound

    static func soundChecks() {
        // apple: class UNNotificationSound
        _ = UNNotificationSound.self
        // apple: @NSCopying class var `default`: UNNotificationSound { get }
        let _: UNNotificationSound = UNNotificationSound.default
        // apple: @NSCopying class var defaultCritical: UNNotificationSound { get }
        let _: UNNotificationSound = UNNotificationSound.defaultCritical
        // apple: @NSCopying class var defaultRingtone: UNNotificationSound { get }
        let _: UNNotificationSound = UNNotificationSound.defaultRingtone
        // apple: convenience init(named name: UNNotificationSoundName)
        let _: (UNNotificationSoundName) -> UNNotificationSound = UNNotificationSound.init(named:)
    }

    // MARK: - UNNotificationSoundName

    static func soundNameChecks() {
        // apple: struct UNNotificationSoundName
        _ = UNNotificationSoundName.self
        // apple: init(_ rawValue: String)
        let _: (String) -> UNNotificationSoundName = UNNotificationSoundName.init(_:)
        // apple: init(rawValue: String)
        let _: (String) -> UNNotificationSoundName = UNNotificationSoundName.init(rawValue:)
    }

    // MARK: - UNNotificationRequest

    static func requestChecks() {
        // apple: class UNNotificationRequest
        _ = UNNotificationRequest.self
        // apple: convenience init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?)
        let _: (String, UNNotificationContent, UNNotificationTrigger?) -> UNNotificationRequest = UNNotificationRequest.init(identifier:content:trigger:)
        // apple: var identifier: String { get }
        let _: KeyPath<UNNotificationRequest, String> = \UNNotificationRequest.identifier
        // apple: @NSCopying var content: UNNotificationContent { get }
        let _: KeyPath<UNNotificationRequest, UNNotificationContent> = \UNNotificationRequest.content
        // apple: @NSCopying var trigger: UNNotificationTrigger? { get }
        let _: KeyPath<UNNotificationRequest, UNNotificationTrigger?> = \UNNotificationRequest.trigger
    }

    // MARK: - UNNotificationTrigger

    static func triggerChecks() {
        // apple: class UNNotificationTrigger
        _ = UNNotificationTrigger.self
        // apple: var repeats: Bool { get }
        let _: KeyPath<UNNotificationTrigger, Bool> = \UNNotificationTrigger.repeats
    }

    // MARK: - UNTimeIntervalNotificationTrigger

    static func timeIntervalTriggerChecks() {
        // apple: class UNTimeIntervalNotificationTrigger
        _ = UNTimeIntervalNotificationTrigger.self
        // apple: convenience init(timeInterval: TimeInterval, repeats: Bool)
        let _: (TimeInterval, Bool) -> UNTimeIntervalNotificationTrigger = UNTimeIntervalNotificationTrigger.init(timeInterval:repeats:)
        // apple: var timeInterval: TimeInterval { get }
        let _: KeyPath<UNTimeIntervalNotificationTrigger, TimeInterval> = \UNTimeIntervalNotificationTrigger.timeInterval
        // apple: func nextTriggerDate() -> Date?
        let _: (UNTimeIntervalNotificationTrigger) -> () -> Date? = UNTimeIntervalNotificationTrigger.nextTriggerDate
    }

    // MARK: - UNCalendarNotificationTrigger

    static func calendarTriggerChecks() {
        // apple: class UNCalendarNotificationTrigger
        _ = UNCalendarNotificationTrigger.self
        // apple: convenience init(dateMatching dateComponents: DateComponents, repeats: Bool)
        let _: (DateComponents, Bool) -> UNCalendarNotificationTrigger = UNCalendarNotificationTrigger.init(dateMatching:repeats:)
        // apple: var dateComponents: DateComponents { get }
        let _: KeyPath<UNCalendarNotificationTrigger, DateComponents> = \UNCalendarNotificationTrigger.dateComponents
        // apple: func nextTriggerDate() -> Date?
        let _: (UNCalendarNotificationTrigger) -> () -> Date? = UNCalendarNotificationTrigger.nextTriggerDate
    }

    // MARK: - UNPushNotificationTrigger

    static func pushTriggerChecks() {
        // apple: class UNPushNotificationTrigger
        _ = UNPushNotificationTrigger.self
    }

    // MARK: - UNNotificationAttachment

    static func attachmentChecks() {
        // apple: class UNNotificationAttachment
        _ = UNNotificationAttachment.self
        // apple: convenience init(identifier: String, url URL: URL, options: [AnyHashable : Any]? = nil) throws
        let _: (String, URL, [AnyHashable: Any]?) throws -> UNNotificationAttachment = UNNotificationAttachment.init(identifier:url:options:)
        // apple: var identifier: String { get }
        let _: KeyPath<UNNotificationAttachment, String> = \UNNotificationAttachment.identifier
        // apple: var url: URL { get }
        let _: KeyPath<UNNotificationAttachment, URL> = \UNNotificationAttachment.url
        // apple: var type: String { get }
        let _: KeyPath<UNNotificationAttachment, String> = \UNNotificationAttachment.type
        // apple: let UNNotificationAttachmentOptionsTypeHintKey: String
        let _: String = UNNotificationAttachmentOptionsTypeHintKey
        // apple: let UNNotificationAttachmentOptionsThumbnailHiddenKey: String
        let _: String = UNNotificationAttachmentOptionsThumbnailHiddenKey
        // apple: let UNNotificationAttachmentOptionsThumbnailClippingRectKey: String
        let _: String = UNNotificationAttachmentOptionsThumbnailClippingRectKey
        // apple: let UNNotificationAttachmentOptionsThumbnailTimeKey: String
        let _: String = UNNotificationAttachmentOptionsThumbnailTimeKey
    }

    // MARK: - UNNotificationAction

    static func actionChecks() {
        // apple: class UNNotificationAction
        _ = UNNotificationAction.self
        // apple: convenience init(identifier: String, title: String, options: UNNotificationActionOptions = [])
        let _: (String, String, UNNotificationActionOptions) -> UNNotificationAction = UNNotificationAction.init(identifier:title:options:)
        // apple: convenience init(identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?)
        let _: (String, String, UNNotificationActionOptions, UNNotificationActionIcon?) -> UNNotificationAction = UNNotificationAction.init(identifier:title:options:icon:)
        // apple: var identifier: String { get }
        let _: KeyPath<UNNotificationAction, String> = \UNNotificationAction.identifier
        // apple: var title: String { get }
        let _: KeyPath<UNNotificationAction, String> = \UNNotificationAction.title
        // apple: var options: UNNotificationActionOptions { get }
        let _: KeyPath<UNNotificationAction, UNNotificationActionOptions> = \UNNotificationAction.options
        // apple: @NSCopying var icon: UNNotificationActionIcon? { get }
        let _: KeyPath<UNNotificationAction, UNNotificationActionIcon?> = \UNNotificationAction.icon
    }

    // MARK: - UNNotificationActionOptions

    static func actionOptionsChecks() {
        // apple: struct UNNotificationActionOptions
        _ = UNNotificationActionOptions.self
        // apple: init(rawValue: UInt)
        let _: (UInt) -> UNNotificationActionOptions = UNNotificationActionOptions.init(rawValue:)
        // apple: static var authenticationRequired: UNNotificationActionOptions { get }
        let _: UNNotificationActionOptions = .authenticationRequired
        // apple: static var destructive: UNNotificationActionOptions { get }
        let _: UNNotificationActionOptions = .destructive
        // apple: static var foreground: UNNotificationActionOptions { get }
        let _: UNNotificationActionOptions = .foreground
    }

    // MARK: - UNNotificationActionIcon

    static func actionIconChecks() {
        // apple: class UNNotificationActionIcon
        _ = UNNotificationActionIcon.self
        // apple: convenience init(systemImageName: String)
        let _: (String) -> UNNotificationActionIcon = UNNotificationActionIcon.init(systemImageName:)
        // apple: convenience init(templateImageName: String)
        let _: (String) -> UNNotificationActionIcon = UNNotificationActionIcon.init(templateImageName:)
    }

    // MARK: - UNTextInputNotificationAction

    static func textInputActionChecks() {
        // apple: class UNTextInputNotificationAction
        _ = UNTextInputNotificationAction.self
        // apple: convenience init(identifier: String, title: String, options: UNNotificationActionOptions = [], textInputButtonTitle: String, textInputPlaceholder: String)
        let _: (String, String, UNNotificationActionOptions, String, String) -> UNTextInputNotificationAction =
            UNTextInputNotificationAction.init(identifier:title:options:textInputButtonTitle:textInputPlaceholder:)
        // apple: convenience init(identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?, textInputButtonTitle: String, textInputPlaceholder: String)
        let _: (String, String, UNNotificationActionOptions, UNNotificationActionIcon?, String, String) -> UNTextInputNotificationAction =
            UNTextInputNotificationAction.init(identifier:title:options:icon:textInputButtonTitle:textInputPlaceholder:)
        // apple: var textInputButtonTitle: String { get }
        let _: KeyPath<UNTextInputNotificationAction, String> = \UNTextInputNotificationAction.textInputButtonTitle
        // apple: var textInputPlaceholder: String { get }
        let _: KeyPath<UNTextInputNotificationAction, String> = \UNTextInputNotificationAction.textInputPlaceholder
    }

    // MARK: - UNNotificationCategory

    static func categoryChecks() {
        // apple: class UNNotificationCategory
        _ = UNNotificationCategory.self
        // apple: convenience init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], options: UNNotificationCategoryOptions = [])
        let _: (String, [UNNotificationAction], [String], UNNotificationCategoryOptions) -> UNNotificationCategory =
            UNNotificationCategory.init(identifier:actions:intentIdentifiers:options:)
        // apple: convenience init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], hiddenPreviewsBodyPlaceholder: String, options: UNNotificationCategoryOptions = [])
        let _: (String, [UNNotificationAction], [String], String, UNNotificationCategoryOptions) -> UNNotificationCategory =
            UNNotificationCategory.init(identifier:actions:intentIdentifiers:hiddenPreviewsBodyPlaceholder:options:)
        // apple: convenience init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], hiddenPreviewsBodyPlaceholder: String?, categorySummaryFormat: String?, options: UNNotificationCategoryOptions = [])
        let _: (String, [UNNotificationAction], [String], String?, String?, UNNotificationCategoryOptions) -> UNNotificationCategory =
            UNNotificationCategory.init(identifier:actions:intentIdentifiers:hiddenPreviewsBodyPlaceholder:categorySummaryFormat:options:)
        // apple: var identifier: String { get }
        let _: KeyPath<UNNotificationCategory, String> = \UNNotificationCategory.identifier
        // apple: var actions: [UNNotificationAction] { get }
        let _: KeyPath<UNNotificationCategory, [UNNotificationAction]> = \UNNotificationCategory.actions
        // apple: var intentIdentifiers: [String] { get }
        let _: KeyPath<UNNotificationCategory, [String]> = \UNNotificationCategory.intentIdentifiers
        // apple: var options: UNNotificationCategoryOptions { get }
        let _: KeyPath<UNNotificationCategory, UNNotificationCategoryOptions> = \UNNotificationCategory.options
        // apple: var hiddenPreviewsBodyPlaceholder: String { get }
        let _: KeyPath<UNNotificationCategory, String> = \UNNotificationCategory.hiddenPreviewsBodyPlaceholder
        // apple: var categorySummaryFormat: String { get }
        let _: KeyPath<UNNotificationCategory, String> = \UNNotificationCategory.categorySummaryFormat
    }

    // MARK: - UNNotificationCategoryOptions

    @available(*, deprecated, message: "also checks the option Apple deprecated")
    static func categoryOptionsChecks() {
        // apple: struct UNNotificationCategoryOptions
        _ = UNNotificationCategoryOptions.self
        // apple: init(rawValue: UInt)
        let _: (UInt) -> UNNotificationCategoryOptions = UNNotificationCategoryOptions.init(rawValue:)
        // apple: static var customDismissAction: UNNotificationCategoryOptions { get }
        let _: UNNotificationCategoryOptions = .customDismissAction
        // apple: static var allowInCarPlay: UNNotificationCategoryOptions { get }
        let _: UNNotificationCategoryOptions = .allowInCarPlay
        // apple: static var hiddenPreviewsShowTitle: UNNotificationCategoryOptions { get }
        let _: UNNotificationCategoryOptions = .hiddenPreviewsShowTitle
        // apple: static var hiddenPreviewsShowSubtitle: UNNotificationCategoryOptions { get }
        let _: UNNotificationCategoryOptions = .hiddenPreviewsShowSubtitle
        // apple: static var allowAnnouncement: UNNotificationCategoryOptions { get }
        let _: UNNotificationCategoryOptions = .allowAnnouncement
    }

    // MARK: - UNNotification

    static func notificationChecks() {
        // apple: class UNNotification
        _ = UNNotification.self
        // apple: @NSCopying var request: UNNotificationRequest { get }
        let _: KeyPath<UNNotification, UNNotificationRequest> = \UNNotification.request
        // apple: var date: Date { get }
        let _: KeyPath<UNNotification, Date> = \UNNotification.date
    }

    // MARK: - UNNotificationResponse

    static func responseChecks() {
        // apple: class UNNotificationResponse
        _ = UNNotificationResponse.self
        // apple: @NSCopying var notification: UNNotification { get }
        let _: KeyPath<UNNotificationResponse, UNNotification> = \UNNotificationResponse.notification
        // apple: var actionIdentifier: String { get }
        let _: KeyPath<UNNotificationResponse, String> = \UNNotificationResponse.actionIdentifier
        // apple: let UNNotificationDefaultActionIdentifier: String
        let _: String = UNNotificationDefaultActionIdentifier
        // apple: let UNNotificationDismissActionIdentifier: String
        let _: String = UNNotificationDismissActionIdentifier
    }

    // MARK: - UNTextInputNotificationResponse

    static func textInputResponseChecks() {
        // apple: class UNTextInputNotificationResponse
        _ = UNTextInputNotificationResponse.self
        // apple: var userText: String { get }
        let _: KeyPath<UNTextInputNotificationResponse, String> = \UNTextInputNotificationResponse.userText
    }

    // MARK: - UNNotificationPresentationOptions

    @available(*, deprecated, message: "also checks the option Apple deprecated")
    static func presentationOptionsChecks() {
        // apple: struct UNNotificationPresentationOptions
        _ = UNNotificationPresentationOptions.self
        // apple: static var badge: UNNotificationPresentationOptions { get }
        let _: UNNotificationPresentationOptions = .badge
        // apple: static var banner: UNNotificationPresentationOptions { get }
        let _: UNNotificationPresentationOptions = .banner
        // apple: static var list: UNNotificationPresentationOptions { get }
        let _: UNNotificationPresentationOptions = .list
        // apple: static var sound: UNNotificationPresentationOptions { get }
        let _: UNNotificationPresentationOptions = .sound
        // apple: static var alert: UNNotificationPresentationOptions { get }
        let _: UNNotificationPresentationOptions = .alert
    }

    // MARK: - UNNotificationServiceExtension

    static func serviceExtensionChecks() {
        // apple: class UNNotificationServiceExtension
        _ = UNNotificationServiceExtension.self
        // apple: init()
        let _: () -> UNNotificationServiceExtension = UNNotificationServiceExtension.init
    }

    private final class ServiceExtensionCheck: UNNotificationServiceExtension {
        // apple: func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void)
        override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
            contentHandler(request.content)
        }

        // apple: func serviceExtensionTimeWillExpire()
        override func serviceExtensionTimeWillExpire() {}
    }

    // MARK: - UNNotificationContentExtension

    static func contentExtensionChecks() {
        // apple: @MainActor protocol UNNotificationContentExtension : NSObjectProtocol
        let _: (any UNNotificationContentExtension) -> any NSObjectProtocol = { $0 }
    }

    @MainActor
    private final class ContentExtensionCheck: NSObject, UNNotificationContentExtension {
        // apple: @MainActor func didReceive(_ notification: UNNotification)
        func didReceive(_ notification: UNNotification) {
            let _: @MainActor (any UNNotificationContentExtension, UNNotification) -> Void = { $0.didReceive($1) }
        }

        // apple: func didReceive(_ response: UNNotificationResponse, completionHandler completion: @escaping @Sendable (UNNotificationContentExtensionResponseOption) -> Void)
        func didReceive(
            _ response: UNNotificationResponse, completionHandler completion: @escaping @Sendable (UNNotificationContentExtensionResponseOption) -> Void
        ) {
            let _: @MainActor (any UNNotificationContentExtension, UNNotificationResponse,
                               @escaping @Sendable (UNNotificationContentExtensionResponseOption) -> Void) -> Void = {
                $0.didReceive($1, completionHandler: $2)
            }
            completion(.dismissAndForwardAction)
        }

        // apple: var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { get }
        var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType {
            let _: @MainActor (any UNNotificationContentExtension) -> UNNotificationContentExtensionMediaPlayPauseButtonType = {
                $0.mediaPlayPauseButtonType
            }
            return .none
        }

        // apple: func mediaPlay()
        func mediaPlay() {
            let _: @MainActor (any UNNotificationContentExtension) -> Void = { $0.mediaPlay() }
        }

        // apple: func mediaPause()
        func mediaPause() {
            let _: @MainActor (any UNNotificationContentExtension) -> Void = { $0.mediaPause() }
        }
    }

    // MARK: - UNNotificationContentExtensionResponseOption

    static func contentExtensionResponseOptionChecks() {
        // apple: enum UNNotificationContentExtensionResponseOption
        _ = UNNotificationContentExtensionResponseOption.self
        // apple: case doNotDismiss
        let _: UNNotificationContentExtensionResponseOption = .doNotDismiss
        // apple: case dismiss
        let _: UNNotificationContentExtensionResponseOption = .dismiss
        // apple: case dismissAndForwardAction
        let _: UNNotificationContentExtensionResponseOption = .dismissAndForwardAction
    }

    // MARK: - UNNotificationContentExtensionMediaPlayPauseButtonType

    static func mediaPlayPauseButtonTypeChecks() {
        // apple: enum UNNotificationContentExtensionMediaPlayPauseButtonType
        _ = UNNotificationContentExtensionMediaPlayPauseButtonType.self
        // apple: case none
        let _: UNNotificationContentExtensionMediaPlayPauseButtonType = .none
        // apple: case `default`
        let _: UNNotificationContentExtensionMediaPlayPauseButtonType = .default
        // apple: case overlay
        let _: UNNotificationContentExtensionMediaPlayPauseButtonType = .overlay
    }

    // MARK: - UNError

    static func errorChecks() {
        // apple: struct UNError
        _ = UNError.self
        // apple: static var errorDomain: String { get }
        let _: String = UNError.errorDomain
        // apple: let UNErrorDomain: String
        let _: String = UNErrorDomain
    }

    // MARK: - UNError.Code

    static func errorCodeChecks() {
        // apple: enum Code
        _ = UNError.Code.self
        // apple: case notificationsNotAllowed
        let _: UNError.Code = .notificationsNotAllowed
        // apple: case attachmentInvalidURL
        let _: UNError.Code = .attachmentInvalidURL
        // apple: case attachmentUnrecognizedType
        let _: UNError.Code = .attachmentUnrecognizedType
        // apple: case attachmentInvalidFileSize
        let _: UNError.Code = .attachmentInvalidFileSize
        // apple: case attachmentNotInDataStore
        let _: UNError.Code = .attachmentNotInDataStore
        // apple: case attachmentMoveIntoDataStoreFailed
        let _: UNError.Code = .attachmentMoveIntoDataStoreFailed
        // apple: case attachmentCorrupt
        let _: UNError.Code = .attachmentCorrupt
        // apple: case notificationInvalidNoDate
        let _: UNError.Code = .notificationInvalidNoDate
        // apple: case notificationInvalidNoContent
        let _: UNError.Code = .notificationInvalidNoContent
        // apple: case contentProvidingObjectNotAllowed
        let _: UNError.Code = .contentProvidingObjectNotAllowed
        // apple: case contentProvidingInvalid
        let _: UNError.Code = .contentProvidingInvalid
        // apple: case badgeInputInvalid
        let _: UNError.Code = .badgeInputInvalid
    }

    // MARK: - UIResponder

    @MainActor static func responderChecks() {
        // apple: @MainActor class UIResponder
        _ = UIResponder.self
    }

    // MARK: - UIApplication

    @MainActor static func applicationChecks() {
        // apple: @MainActor class UIApplication
        _ = UIApplication.self
        // apple: func registerForRemoteNotifications()
        let _: @MainActor (UIApplication) -> Void = { $0.registerForRemoteNotifications() }
        // apple: func unregisterForRemoteNotifications()
        let _: @MainActor (UIApplication) -> Void = { $0.unregisterForRemoteNotifications() }
        // apple: var isRegisteredForRemoteNotifications: Bool { get }
        let _: @MainActor (UIApplication) -> Bool = { $0.isRegisteredForRemoteNotifications }
    }

    // MARK: - UIApplication.State

    @MainActor static func applicationStateChecks() {
        // apple: enum State
        _ = UIApplication.State.self
        // apple: case active
        let _: UIApplication.State = .active
        // apple: case inactive
        let _: UIApplication.State = .inactive
        // apple: case background
        let _: UIApplication.State = .background
    }

    // MARK: - UIApplication.LaunchOptionsKey

    @MainActor static func launchOptionsKeyChecks() {
        // apple: struct LaunchOptionsKey
        _ = UIApplication.LaunchOptionsKey.self
        // apple: static let remoteNotification: UIApplication.LaunchOptionsKey
        let _: UIApplication.LaunchOptionsKey = .remoteNotification
    }

    // MARK: - UIApplicationDelegate

    @MainActor static func applicationDelegateChecks() {
        // apple: @MainActor protocol UIApplicationDelegate : NSObjectProtocol
        let _: (any UIApplicationDelegate) -> any NSObjectProtocol = { $0 }
    }

    @MainActor
    private final class ApplicationDelegateCheck: UIResponder, UIApplicationDelegate {
        // apple: func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data)
        func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
            let _: @MainActor (any UIApplicationDelegate, UIApplication, Data) -> Void = {
                $0.application($1, didRegisterForRemoteNotificationsWithDeviceToken: $2)
            }
        }

        // apple: func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error)
        func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {
            let _: @MainActor (any UIApplicationDelegate, UIApplication, any Error) -> Void = {
                $0.application($1, didFailToRegisterForRemoteNotificationsWithError: $2)
            }
        }

        // apple: func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable : Any], fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void)
        func application(
            _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
            fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
        ) {
            let _: @MainActor (any UIApplicationDelegate, UIApplication, [AnyHashable: Any],
                               @escaping (UIBackgroundFetchResult) -> Void) -> Void = {
                $0.application($1, didReceiveRemoteNotification: $2, fetchCompletionHandler: $3)
            }
            completionHandler(.noData)
        }

        // apple: func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable : Any]) async -> UIBackgroundFetchResult
        func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]) async -> UIBackgroundFetchResult {
            let _: @MainActor (any UIApplicationDelegate, UIApplication, [AnyHashable: Any]) async -> UIBackgroundFetchResult = {
                await $0.application($1, didReceiveRemoteNotification: $2)
            }
            return .noData
        }
    }

    // MARK: - UIBackgroundFetchResult

    static func backgroundFetchResultChecks() {
        // apple: enum UIBackgroundFetchResult
        _ = UIBackgroundFetchResult.self
        // apple: case newData
        let _: UIBackgroundFetchResult = .newData
        // apple: case noData
        let _: UIBackgroundFetchResult = .noData
        // apple: case failed
        let _: UIBackgroundFetchResult = .failed
    }

    // MARK: - INImage

    static func imageChecks() {
        // apple: class INImage
        _ = INImage.self
        // apple: convenience init(imageData: Data)
        let _: (Data) -> INImage = INImage.init(imageData:)
        // apple: convenience init?(url URL: URL)
        let _: (URL) -> INImage? = INImage.init(url:)
        // apple: convenience init(named name: String)
        let _: (String) -> INImage = INImage.init(named:)
    }

    // MARK: - INPerson

    static func personChecks() {
        // apple: class INPerson
        _ = INPerson.self
        // apple: convenience init(personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?, contactIdentifier: String?, customIdentifier: String?)
        let _: (INPersonHandle, PersonNameComponents?, String?, INImage?, String?, String?) -> INPerson =
            INPerson.init(personHandle:nameComponents:displayName:image:contactIdentifier:customIdentifier:)
        // apple: init(personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?, contactIdentifier: String?, customIdentifier: String?, isMe: Bool)
        let _: (INPersonHandle, PersonNameComponents?, String?, INImage?, String?, String?, Bool) -> INPerson =
            INPerson.init(personHandle:nameComponents:displayName:image:contactIdentifier:customIdentifier:isMe:)
        // apple: convenience init(personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?, contactIdentifier: String?, customIdentifier: String?, isMe: Bool, suggestionType: INPersonSuggestionType)
        let _: (INPersonHandle, PersonNameComponents?, String?, INImage?, String?, String?, Bool, INPersonSuggestionType) -> INPerson =
            INPerson.init(personHandle:nameComponents:displayName:image:contactIdentifier:customIdentifier:isMe:suggestionType:)
    }

    // MARK: - INPersonHandle

    static func personHandleChecks() {
        // apple: class INPersonHandle
        _ = INPersonHandle.self
        // apple: convenience init(value: String?, type: INPersonHandleType)
        let _: (String?, INPersonHandleType) -> INPersonHandle = INPersonHandle.init(value:type:)
        // apple: var value: String? { get }
        let _: KeyPath<INPersonHandle, String?> = \INPersonHandle.value
        // apple: var type: INPersonHandleType { get }
        let _: KeyPath<INPersonHandle, INPersonHandleType> = \INPersonHandle.type
    }

    // MARK: - INPersonHandleType

    static func personHandleTypeChecks() {
        // apple: enum INPersonHandleType
        _ = INPersonHandleType.self
        // apple: case unknown
        let _: INPersonHandleType = .unknown
        // apple: case emailAddress
        let _: INPersonHandleType = .emailAddress
        // apple: case phoneNumber
        let _: INPersonHandleType = .phoneNumber
    }

    // MARK: - INPersonSuggestionType

    static func personSuggestionTypeChecks() {
        // apple: enum INPersonSuggestionType
        _ = INPersonSuggestionType.self
        // apple: case none
        let _: INPersonSuggestionType = .none
        // apple: case socialProfile
        let _: INPersonSuggestionType = .socialProfile
        // apple: case instantMessageAddress
        let _: INPersonSuggestionType = .instantMessageAddress
    }

    // MARK: - INSpeakableString

    static func speakableStringChecks() {
        // apple: class INSpeakableString
        _ = INSpeakableString.self
        // apple: convenience init(spokenPhrase: String)
        let _: (String) -> INSpeakableString = INSpeakableString.init(spokenPhrase:)
    }

    // MARK: - INIntent

    static func intentChecks() {
        // apple: class INIntent
        _ = INIntent.self
    }

    // MARK: - INIntentResponse

    static func intentResponseChecks() {
        // apple: class INIntentResponse
        _ = INIntentResponse.self
    }

    // MARK: - INSendMessageIntent

    static func sendMessageIntentChecks() {
        // apple: class INSendMessageIntent
        _ = INSendMessageIntent.self
        // apple: convenience init(recipients: [INPerson]?, outgoingMessageType: INOutgoingMessageType, content: String?, speakableGroupName: INSpeakableString?, conversationIdentifier: String?, serviceName: String?, sender: INPerson?)
        let _: ([INPerson]?, INOutgoingMessageType, String?, INSpeakableString?, String?, String?, INPerson?) -> INSendMessageIntent =
            INSendMessageIntent.init(recipients:outgoingMessageType:content:speakableGroupName:conversationIdentifier:serviceName:sender:)
        // apple: var recipients: [INPerson]? { get }
        let _: KeyPath<INSendMessageIntent, [INPerson]?> = \INSendMessageIntent.recipients
        // apple: var outgoingMessageType: INOutgoingMessageType { get }
        let _: KeyPath<INSendMessageIntent, INOutgoingMessageType> = \INSendMessageIntent.outgoingMessageType
        // apple: var content: String? { get }
        let _: KeyPath<INSendMessageIntent, String?> = \INSendMessageIntent.content
        // apple: var conversationIdentifier: String? { get }
        let _: KeyPath<INSendMessageIntent, String?> = \INSendMessageIntent.conversationIdentifier
        // apple: var serviceName: String? { get }
        let _: KeyPath<INSendMessageIntent, String?> = \INSendMessageIntent.serviceName
    }

    // MARK: - INOutgoingMessageType

    static func outgoingMessageTypeChecks() {
        // apple: enum INOutgoingMessageType
        _ = INOutgoingMessageType.self
        // apple: case unknown
        let _: INOutgoingMessageType = .unknown
        // apple: case outgoingMessageText
        let _: INOutgoingMessageType = .outgoingMessageText
        // apple: case outgoingMessageAudio
        let _: INOutgoingMessageType = .outgoingMessageAudio
    }

    // MARK: - INInteraction

    static func interactionChecks() {
        // apple: class INInteraction
        _ = INInteraction.self
        // apple: init(intent: INIntent, response: INIntentResponse?)
        let _: (INIntent, INIntentResponse?) -> INInteraction = INInteraction.init(intent:response:)
        // apple: func donate(completion: (@Sendable ((any Error)?) -> Void)? = nil)
        let _: (INInteraction) -> ((@Sendable ((any Error)?) -> Void)?) -> Void = INInteraction.donate(completion:)
        // apple: func donate() async throws
        let _: (INInteraction) -> () async throws -> Void = INInteraction.donate
    }

    // MARK: - INInteractionDirection

    static func interactionDirectionChecks() {
        // apple: enum INInteractionDirection
        _ = INInteractionDirection.self
        // apple: case unspecified
        let _: INInteractionDirection = .unspecified
        // apple: case outgoing
        let _: INInteractionDirection = .outgoing
        // apple: case incoming
        let _: INInteractionDirection = .incoming
    }

    // MARK: - PushKit and CallKit

    static func pushKitChecks() {
        // apple: class PKPushRegistry
        _ = PKPushRegistry.self
        // apple: init(queue: dispatch_queue_t?)
        let _: (DispatchQueue?) -> PKPushRegistry = PKPushRegistry.init(queue:)
        // apple: weak var delegate: (any PKPushRegistryDelegate)? { get set }
        let _: ReferenceWritableKeyPath<PKPushRegistry, (any PKPushRegistryDelegate)?> = \PKPushRegistry.delegate
        // apple: var desiredPushTypes: Set<PKPushType>? { get set }
        let _: ReferenceWritableKeyPath<PKPushRegistry, Set<PKPushType>?> = \PKPushRegistry.desiredPushTypes
        // apple: func pushToken(for type: PKPushType) -> Data?
        let _: (PKPushRegistry) -> (PKPushType) -> Data? = PKPushRegistry.pushToken(for:)
        // apple: protocol PKPushRegistryDelegate : NSObjectProtocol
        let _: (any PKPushRegistryDelegate) -> any NSObjectProtocol = { $0 }
        // apple: struct PKPushType
        let _: (String) -> PKPushType = PKPushType.init(rawValue:)
        // apple: static let voIP: PKPushType
        let _: PKPushType = .voIP
        // apple: static let fileProvider: PKPushType
        let _: PKPushType = .fileProvider
        // apple: class PKPushPayload
        _ = PKPushPayload.self
        // apple: var type: PKPushType { get }
        let _: KeyPath<PKPushPayload, PKPushType> = \PKPushPayload.type
        // apple: var dictionaryPayload: [AnyHashable : Any] { get }
        let _: KeyPath<PKPushPayload, [AnyHashable: Any]> = \PKPushPayload.dictionaryPayload
        // apple: class PKPushCredentials
        _ = PKPushCredentials.self
        // apple: var type: PKPushType { get }
        let _: KeyPath<PKPushCredentials, PKPushType> = \PKPushCredentials.type
        // apple: var token: Data { get }
        let _: KeyPath<PKPushCredentials, Data> = \PKPushCredentials.token
        // apple: class CXProvider
        _ = CXProvider.self
        // apple: init(configuration: CXProviderConfiguration)
        let _: (CXProviderConfiguration) -> CXProvider = CXProvider.init(configuration:)
        // apple: func setDelegate(_ delegate: (any CXProviderDelegate)?, queue: dispatch_queue_t?)
        let _: (CXProvider) -> ((any CXProviderDelegate)?, DispatchQueue?) -> Void = CXProvider.setDelegate(_:queue:)
        // apple: func reportNewIncomingCall(with UUID: UUID, update: CXCallUpdate, completion: @escaping @Sendable ((any Error)?) -> Void)
        let _: (CXProvider) -> (UUID, CXCallUpdate, @escaping @Sendable ((any Error)?) -> Void) -> Void = CXProvider.reportNewIncomingCall(with:update:completion:)
        // apple: func reportNewIncomingCall(with UUID: UUID, update: CXCallUpdate) async throws
        let _: (CXProvider) -> (UUID, CXCallUpdate) async throws -> Void = CXProvider.reportNewIncomingCall(with:update:)
        // apple: class CXProviderConfiguration
        _ = CXProviderConfiguration.self
        // apple: init()
        let _: () -> CXProviderConfiguration = CXProviderConfiguration.init
        // apple: var supportsVideo: Bool { get set }
        let _: ReferenceWritableKeyPath<CXProviderConfiguration, Bool> = \CXProviderConfiguration.supportsVideo
        // apple: var maximumCallGroups: Int { get set }
        let _: ReferenceWritableKeyPath<CXProviderConfiguration, Int> = \CXProviderConfiguration.maximumCallGroups
        // apple: var maximumCallsPerCallGroup: Int { get set }
        let _: ReferenceWritableKeyPath<CXProviderConfiguration, Int> = \CXProviderConfiguration.maximumCallsPerCallGroup
        // apple: protocol CXProviderDelegate : NSObjectProtocol
        let _: (any CXProviderDelegate) -> any NSObjectProtocol = { $0 }
        // apple: class CXCallUpdate
        _ = CXCallUpdate.self
        // apple: @NSCopying var remoteHandle: CXHandle? { get set }
        let _: ReferenceWritableKeyPath<CXCallUpdate, CXHandle?> = \CXCallUpdate.remoteHandle
        // apple: var localizedCallerName: String? { get set }
        let _: ReferenceWritableKeyPath<CXCallUpdate, String?> = \CXCallUpdate.localizedCallerName
        // apple: var hasVideo: Bool { get set }
        let _: ReferenceWritableKeyPath<CXCallUpdate, Bool> = \CXCallUpdate.hasVideo
        // apple: class CXHandle
        _ = CXHandle.self
        // apple: init(type: CXHandle.HandleType, value: String)
        let _: (CXHandle.HandleType, String) -> CXHandle = CXHandle.init(type:value:)
        // apple: var type: CXHandle.HandleType { get }
        let _: KeyPath<CXHandle, CXHandle.HandleType> = \CXHandle.type
        // apple: var value: String { get }
        let _: KeyPath<CXHandle, String> = \CXHandle.value
        // apple: enum HandleType
        _ = CXHandle.HandleType.self
        // apple: case generic
        let _: CXHandle.HandleType = .generic
        // apple: case phoneNumber
        let _: CXHandle.HandleType = .phoneNumber
        // apple: case emailAddress
        let _: CXHandle.HandleType = .emailAddress
    }

    private final class PushRegistryDelegateCheck: NSObject, PKPushRegistryDelegate {
        // apple: func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType)
        func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {
            let _: (any PKPushRegistryDelegate, PKPushRegistry, PKPushCredentials, PKPushType) -> Void = { $0.pushRegistry($1, didUpdate: $2, for: $3) }
        }

        // apple: func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType, completion: @escaping @Sendable () -> Void)
        func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
                          completion: @escaping @Sendable () -> Void) {
            let _: (any PKPushRegistryDelegate, PKPushRegistry, PKPushPayload, PKPushType, @escaping @Sendable () -> Void) -> Void = {
                $0.pushRegistry($1, didReceiveIncomingPushWith: $2, for: $3, completion: $4)
            }
            completion()
        }

        // apple: func pushRegistry(_ registry: PKPushRegistry, didInvalidatePushTokenFor type: PKPushType)
        func pushRegistry(_ registry: PKPushRegistry, didInvalidatePushTokenFor type: PKPushType) {
            let _: (any PKPushRegistryDelegate, PKPushRegistry, PKPushType) -> Void = { $0.pushRegistry($1, didInvalidatePushTokenFor: $2) }
        }
    }

    private final class ProviderDelegateCheck: NSObject, CXProviderDelegate {
        // apple: func providerDidReset(_ provider: CXProvider)
        func providerDidReset(_ provider: CXProvider) {
            let _: (any CXProviderDelegate, CXProvider) -> Void = { $0.providerDidReset($1) }
        }
    }
}

@Suite struct AppleDeclarationTests {
    /// The checked-in list and the checks above name the same declarations.
    @Test func everyListedDeclarationIsChecked() throws {
        let checksFile = URL(fileURLWithPath: #filePath)
        let root = checksFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let list = try String(contentsOf: root.appendingPathComponent("docs/apple/UserNotifications-API.md"), encoding: .utf8)
        let checks = try String(contentsOf: checksFile, encoding: .utf8)

        let listed = Self.listedDeclarations(list)
        let checked = Self.checkedDeclarations(checks)
        #expect(!listed.isEmpty, "found no declarations in docs/apple/UserNotifications-API.md")

        // Counted, not only collected: a declaration listed under two types (`case none`,
        // `init()`) needs a check under each.
        let listedCounts = Self.counts(listed)
        let checkedCounts = Self.counts(checked)
        let unchecked = listedCounts.filter { checkedCounts[$0.key, default: 0] < $0.value }.keys.sorted()
        let unlisted = checkedCounts.filter { listedCounts[$0.key, default: 0] < $0.value }.keys.sorted()
        #expect(
            listedCounts == checkedCounts,
            """
            listed in docs/apple/UserNotifications-API.md without a check: \(unchecked)
            checked in AppleDeclarationChecks.swift but not listed: \(unlisted)
            """
        )
    }

    /// The code spans of the bullets under the type headings; the bullets under "Not mirrored"
    /// are left out.
    private static func listedDeclarations(_ markdown: String) -> [String] {
        var declarations: [String] = []
        var inTypeSection = false
        for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("## ") {
                inTypeSection = line.dropFirst(3).trimmingCharacters(in: .whitespaces) != "Not mirrored"
                continue
            }
            if line.hasPrefix("# ") {
                inTypeSection = false
                continue
            }
            guard inTypeSection, line.hasPrefix("- `") else { continue }
            let span = line.dropFirst(2)
            let fence = String(span.prefix { $0 == "`" })
            let inner = span.dropFirst(fence.count)
            guard inner.hasSuffix(fence) else {
                // Not a bullet of exactly one code span: keep it whole so the test names it.
                declarations.append(line)
                continue
            }
            declarations.append(inner.dropLast(fence.count).trimmingCharacters(in: .whitespaces))
        }
        return declarations
    }

    /// The texts of the `// apple: ` comments.
    private static func checkedDeclarations(_ source: String) -> [String] {
        let marker = "// apple: "
        return source.split(separator: "\n", omittingEmptySubsequences: false).compactMap { (rawLine: Substring) -> String? in
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            guard line.hasPrefix(marker) else { return nil }
            return line.dropFirst(marker.count).trimmingCharacters(in: .whitespaces)
        }
    }

    private static func counts(_ declarations: [String]) -> [String: Int] {
        declarations.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }
}
