import Foundation
import HeraldCore
import HeraldDevice

/// What a notification shows and carries (Apple's `UNNotificationContent`): read-only; make a
/// ``UNMutableNotificationContent`` with `mutableCopy()` to change it.
public class UNNotificationContent: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// Everything the content holds, in Apple's types.
    struct Fields {
        var title = ""
        var subtitle = ""
        var body = ""
        var badge: NSNumber?
        var sound: UNNotificationSound?
        var launchImageName = ""
        var userInfo: [AnyHashable: Any] = [:]
        var attachments: [UNNotificationAttachment] = []
        var categoryIdentifier = ""
        var threadIdentifier = ""
        var targetContentIdentifier: String?
        var summaryArgument = ""
        var summaryArgumentCount = 0
        var interruptionLevel = UNNotificationInterruptionLevel.active
        var relevanceScore = 0.0
        var filterCriteria: String?
        /// Set by `updating(from:)` with a message intent.
        var communication: CommunicationContext?
        /// The app this content was delivered to, for the checks of `updating(from:)`.
        var app: AppBundle?
    }

    var fields: Fields

    public override init() {
        fields = Fields()
        super.init()
    }

    init(fields: Fields) {
        self.fields = fields
        super.init()
    }

    public var title: String { fields.title }
    public var subtitle: String { fields.subtitle }
    public var body: String { fields.body }
    /// The number to show on the app's icon; `nil` leaves it, 0 clears it.
    public var badge: NSNumber? { fields.badge }
    public var sound: UNNotificationSound? { fields.sound }
    public var launchImageName: String { fields.launchImageName }
    /// The push's payload (or what the app put there for a local notification).
    public var userInfo: [AnyHashable: Any] { fields.userInfo }
    public var attachments: [UNNotificationAttachment] { fields.attachments }
    public var categoryIdentifier: String { fields.categoryIdentifier }
    public var threadIdentifier: String { fields.threadIdentifier }
    public var targetContentIdentifier: String? { fields.targetContentIdentifier }
    @available(*, deprecated, message: "Apple ignores the summary argument since iOS 15")
    public var summaryArgument: String { fields.summaryArgument }
    @available(*, deprecated, message: "Apple ignores the summary argument count since iOS 15")
    public var summaryArgumentCount: Int { fields.summaryArgumentCount }
    public var interruptionLevel: UNNotificationInterruptionLevel { fields.interruptionLevel }
    public var relevanceScore: Double { fields.relevanceScore }
    public var filterCriteria: String? { fields.filterCriteria }

    public func copy(with zone: NSZone? = nil) -> Any { UNNotificationContent(fields: fields) }

    public func mutableCopy(with zone: NSZone? = nil) -> Any { UNMutableNotificationContent(fields: fields) }

    /// Makes a communication notification from an `INSendMessageIntent` (seed 003): the sender's
    /// name and avatar are shown in place of the app's icon. Throws as iOS does when the app is
    /// not set up for it: the Communication Notifications capability, and the intent listed in
    /// `NSUserActivityTypes` of the app's and the service extension's Info.plist.
    public func updating(from provider: any UNNotificationContentProviding) throws -> UNNotificationContent {
        guard let intent = provider as? INSendMessageIntent else {
            throw UNError(.contentProvidingInvalid, "only INSendMessageIntent and INStartCallIntent can update notification content")
        }
        let communication = intent.communicationContext
        if let app = fields.app, let refusal = communication.refusal(for: app) {
            if let runtime = AppRuntime.running {
                runtime.track {
                    await runtime.note("content.updating(from: INSendMessageIntent) threw: \(refusal)",
                                       details: ["call": "updating(from:)", "error": "contentProvidingObjectNotAllowed"])
                }
            }
            throw UNError(.contentProvidingObjectNotAllowed, refusal)
        }
        var updated = fields
        updated.communication = communication
        return UNNotificationContent(fields: updated)
    }

    public override var description: String {
        "<UNNotificationContent: title: \(title), subtitle: \(subtitle), body: \(body), categoryIdentifier: \(categoryIdentifier), attachments: \(attachments.count)>"
    }
}

extension UNNotificationContent {
    /// The content as the simulated device holds it.
    package var deviceContent: NotificationContent {
        var content = NotificationContent(title: fields.title, subtitle: fields.subtitle, body: fields.body)
        content.badge = fields.badge?.intValue
        content.sound = fields.sound?.deviceName
        content.userInfo = PropertyListBridge.json(fields.userInfo)
        content.attachments = fields.attachments.map(\.deviceAttachment)
        content.launchImageName = fields.launchImageName
        content.categoryIdentifier = fields.categoryIdentifier
        content.threadIdentifier = fields.threadIdentifier
        content.interruptionLevel = fields.interruptionLevel.deviceLevel
        content.targetContentIdentifier = fields.targetContentIdentifier
        content.relevanceScore = fields.relevanceScore
        content.filterCriteria = fields.filterCriteria
        content.communication = fields.communication
        return content
    }

    /// Content as the device delivered it, for app code.
    static func fields(from content: NotificationContent, userInfo: JSONObject? = nil, app: AppBundle?) -> Fields {
        var fields = Fields()
        fields.title = content.title
        fields.subtitle = content.subtitle
        fields.body = content.body
        fields.badge = content.badge.map { NSNumber(value: $0) }
        fields.sound = content.sound.map(UNNotificationSound.init(deviceName:))
        fields.launchImageName = content.launchImageName
        fields.userInfo = PropertyListBridge.userInfo(userInfo ?? content.userInfo)
        fields.attachments = content.attachments.map(UNNotificationAttachment.init(device:))
        fields.categoryIdentifier = content.categoryIdentifier
        fields.threadIdentifier = content.threadIdentifier
        fields.targetContentIdentifier = content.targetContentIdentifier
        fields.interruptionLevel = UNNotificationInterruptionLevel(device: content.interruptionLevel)
        fields.relevanceScore = content.relevanceScore
        fields.filterCriteria = content.filterCriteria
        fields.communication = content.communication
        fields.app = app
        return fields
    }
}
