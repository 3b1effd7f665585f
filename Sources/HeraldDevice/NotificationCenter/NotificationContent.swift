import HeraldCore

/// What a notification shows and carries (UNNotificationContent).
public struct NotificationContent: Sendable, Equatable {
    public var title = ""
    public var subtitle = ""
    public var body = ""
    public var badge: Int?
    /// A sound name from the app bundle, `"default"`, or `nil` for silence.
    public var sound: String?
    public var userInfo: JSONObject = JSONObject()
    public var attachments: [NotificationAttachment] = []
    public var launchImageName = ""
    public var categoryIdentifier = ""
    public var threadIdentifier = ""
    public var interruptionLevel: InterruptionLevel = .active
    /// Set when a service extension made this a communication notification (seed 003).
    public var communication: CommunicationContext?

    public init(title: String = "", subtitle: String = "", body: String = "") {
        self.title = title
        self.subtitle = subtitle
        self.body = body
    }
}
