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
    /// `target-content-id`: the window or content to bring forward when the notification is opened.
    public var targetContentIdentifier: String?
    /// `relevance-score`, 0…1: how the notification is ranked in a summary.
    public var relevanceScore = 0.0
    /// `filter-criteria`: the Focus filter the notification matches.
    public var filterCriteria: String?
    /// Set when a service extension made this a communication notification (seed 003).
    public var communication: CommunicationContext?

    public init(title: String = "", subtitle: String = "", body: String = "") {
        self.title = title
        self.subtitle = subtitle
        self.body = body
    }

    /// Whether it has alert text (a title, subtitle or body) to show.
    public var hasText: Bool { !(title.isEmpty && subtitle.isEmpty && body.isEmpty) }
}
