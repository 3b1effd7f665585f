/// Why the notification center refused a request or a setting, in words a developer can act on.
public enum NotificationCenterError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidTrigger(String)
    case invalidAttachment(NotificationAttachment.Problem, String)
    /// The user has not allowed (or not yet been asked to allow) notifications.
    case notAllowed(String)

    public var description: String {
        switch self {
        case .invalidTrigger(let why): "invalid trigger: \(why)"
        case .invalidAttachment(_, let why): "invalid attachment: \(why)"
        case .notAllowed(let why): "notifications are not allowed: \(why)"
        }
    }
}
