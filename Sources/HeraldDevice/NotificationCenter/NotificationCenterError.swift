/// Why the notification center refused a request or a setting, in words a developer can act on.
public enum NotificationCenterError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidTrigger(String)
    case invalidAttachment(String)
    case duplicateActionIdentifier(String)

    public var description: String {
        switch self {
        case .invalidTrigger(let why): "invalid trigger: \(why)"
        case .invalidAttachment(let why): "invalid attachment: \(why)"
        case .duplicateActionIdentifier(let id): "the action identifier \"\(id)\" is used more than once; action identifiers must be unique across all categories"
        }
    }
}
