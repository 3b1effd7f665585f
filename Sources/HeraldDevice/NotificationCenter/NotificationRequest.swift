/// A local notification request (UNNotificationRequest): an identifier, content and a trigger.
public struct NotificationRequest: Sendable, Equatable {
    public var identifier: String
    public var content: NotificationContent
    /// `nil` delivers at once.
    public var trigger: NotificationTrigger?

    public init(identifier: String, content: NotificationContent, trigger: NotificationTrigger?) {
        self.identifier = identifier
        self.content = content
        self.trigger = trigger
    }
}
