import Foundation

/// Content the app can change (Apple's `UNMutableNotificationContent`): for local notifications,
/// and in a service extension as `request.content.mutableCopy() as? UNMutableNotificationContent`.
public class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    public override var title: String {
        get { fields.title }
        set { fields.title = newValue }
    }
    public override var subtitle: String {
        get { fields.subtitle }
        set { fields.subtitle = newValue }
    }
    public override var body: String {
        get { fields.body }
        set { fields.body = newValue }
    }
    public override var badge: NSNumber? {
        get { fields.badge }
        set { fields.badge = newValue }
    }
    public override var sound: UNNotificationSound? {
        get { fields.sound }
        set { fields.sound = newValue }
    }
    public override var launchImageName: String {
        get { fields.launchImageName }
        set { fields.launchImageName = newValue }
    }
    public override var userInfo: [AnyHashable: Any] {
        get { fields.userInfo }
        set { fields.userInfo = newValue }
    }
    public override var attachments: [UNNotificationAttachment] {
        get { fields.attachments }
        set { fields.attachments = newValue }
    }
    public override var categoryIdentifier: String {
        get { fields.categoryIdentifier }
        set { fields.categoryIdentifier = newValue }
    }
    public override var threadIdentifier: String {
        get { fields.threadIdentifier }
        set { fields.threadIdentifier = newValue }
    }
    public override var targetContentIdentifier: String? {
        get { fields.targetContentIdentifier }
        set { fields.targetContentIdentifier = newValue }
    }
    @available(*, deprecated, message: "Apple ignores the summary argument since iOS 15")
    public override var summaryArgument: String {
        get { fields.summaryArgument }
        set { fields.summaryArgument = newValue }
    }
    @available(*, deprecated, message: "Apple ignores the summary argument count since iOS 15")
    public override var summaryArgumentCount: Int {
        get { fields.summaryArgumentCount }
        set { fields.summaryArgumentCount = newValue }
    }
    public override var interruptionLevel: UNNotificationInterruptionLevel {
        get { fields.interruptionLevel }
        set { fields.interruptionLevel = newValue }
    }
    public override var relevanceScore: Double {
        get { fields.relevanceScore }
        set { fields.relevanceScore = newValue }
    }
    public override var filterCriteria: String? {
        get { fields.filterCriteria }
        set { fields.filterCriteria = newValue }
    }

    public override func copy(with zone: NSZone? = nil) -> Any { UNNotificationContent(fields: fields) }
}
