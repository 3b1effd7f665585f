import Foundation

/// Where a notification stands as a whole.
public enum NotificationStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Some deliveries are still queued (or its audience is still being queued).
    case sending
    /// Every delivery is sent, failed or expired.
    case finished
    /// Cancelled while going out: what was sent stays recorded, the rest is `cancelled`.
    case cancelled

    /// The allowed values, for error messages.
    public static var allowedValues: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Which of an app's notifications to list, a page at a time, newest first.
public struct NotificationQuery: Sendable, Hashable {
    /// A place in the list: a notification's creation time and id.
    public struct Position: Sendable, Hashable {
        public var createdAt: Date
        public var id: String

        public init(createdAt: Date, id: String) {
            self.createdAt = createdAt
            self.id = id
        }
    }

    /// Created at or after this time.
    public var since: Date?
    /// Created before this time.
    public var until: Date?
    public var status: NotificationStatus?
    /// The page starts after this notification (the last one of the previous page).
    public var after: Position?
    /// Notifications per page.
    public var limit: Int

    public init(since: Date? = nil, until: Date? = nil, status: NotificationStatus? = nil, after: Position? = nil, limit: Int = 50) {
        self.since = since
        self.until = until
        self.status = status
        self.after = after
        self.limit = limit
    }
}

/// A notification in a list, with where it stands.
public struct NotificationEntry: Sendable, Hashable {
    public var notification: StoredNotification
    public var status: NotificationStatus

    public init(notification: StoredNotification, status: NotificationStatus) {
        self.notification = notification
        self.status = status
    }
}
