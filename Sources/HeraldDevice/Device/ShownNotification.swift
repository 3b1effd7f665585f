import Foundation
import HeraldCore

/// A notification the user can see: on the lock screen, as a banner, or in the list, with what
/// the system resolved for it (actions, content extension).
public struct ShownNotification: Sendable, Equatable {
    public var notification: DeliveredNotification
    /// The app's bundle id and the name shown in the banner.
    public var app: String
    public var appName: String
    public var options: PresentationOptions
    /// The registered category the payload named, if any.
    public var category: NotificationCategory?
    /// The content extension that shows this category, if one does.
    public var contentExtension: ContentExtensionConfiguration?
    /// Shown while the device was locked.
    public var onLockScreen: Bool
    /// The text is hidden (previews set to when unlocked while locked, or never): the title and
    /// subtitle only as the category's options allow, the body replaced by the placeholder.
    public var previewsHidden = false
    /// Notifications of its app and thread in Notification Center, itself included.
    public var groupSize = 1
    /// The header of the expanded view: the app's name, or the content extension's view
    /// controller title when its plist overrides the default title.
    public var expandedTitle: String?
    /// The content extension's view is open (long press / expanded).
    public var expanded = false
    /// The interruption level in effect (after entitlement checks).
    public var interruptionLevel: InterruptionLevel

    public var identifier: String { notification.identifier }
    public var content: NotificationContent { notification.content }
    /// The buttons shown when the notification is expanded: the category's first
    /// ``NotificationCategory/maximumShownActions``.
    public var actions: [NotificationAction] { Array((category?.actions ?? []).prefix(NotificationCategory.maximumShownActions)) }
}

/// The APNs headers the device sees with a push (they arrive with it through the sandbox).
public struct PushHeaders: Sendable, Equatable {
    public var apnsID: String?
    public var collapseID: String?
    public var pushType: PushType?
    public var priority: Int?

    public init(apnsID: String? = nil, collapseID: String? = nil, pushType: PushType? = nil, priority: Int? = nil) {
        self.apnsID = apnsID
        self.collapseID = collapseID
        self.pushType = pushType
        self.priority = priority
    }
}

/// One installed app's state on the device.
struct InstalledApp: Sendable {
    var bundle: AppBundle
    var settings: NotificationSettings
    var state: AppRunState
    /// The user swiped the app away: background pushes do not launch it.
    var forceQuit = false
    var center: DeviceNotificationCenter
    var delegate: (any NotificationDelegate)?
    var serviceExtension: (any NotificationServiceExtension)?
    var contentExtensionHandlers: [String: any NotificationContentExtension]
    /// Content extensions whose plists iOS accepts.
    var contentConfigurations: [ContentExtensionConfiguration]
    var badge = 0
    /// The app's PKPushRegistry delegate for VoIP pushes, if it made one.
    var pushKit: (any PushKitDelegate)?
    /// VoIP pushes in a row the app did not report to CallKit.
    var voipMisses = 0
    /// When background pushes woke the app, for the hourly budget.
    var backgroundWakes: [Date] = []
    /// The newest background push iOS held back (budget or Low Power Mode), delivered when the
    /// user next opens the app.
    var heldBackgroundPush: (userInfo: JSONObject, notification: String)?
}
