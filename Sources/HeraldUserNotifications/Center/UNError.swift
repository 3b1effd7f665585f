import Foundation

/// The error domain of UserNotifications' errors.
public let UNErrorDomain = "UNErrorDomain"

/// An error of the notification framework (Apple's `UNError`), with what was wrong in its
/// localized description.
public struct UNError: CustomNSError, Hashable, Sendable, CustomStringConvertible {
    /// Apple's `UNError.Code` values.
    public enum Code: Int, Sendable {
        case notificationsNotAllowed = 1
        case attachmentInvalidURL = 100
        case attachmentUnrecognizedType = 101
        case attachmentInvalidFileSize = 102
        case attachmentNotInDataStore = 103
        case attachmentMoveIntoDataStoreFailed = 104
        case attachmentCorrupt = 105
        case notificationInvalidNoDate = 1400
        case notificationInvalidNoContent = 1401
        case contentProvidingObjectNotAllowed = 1500
        case contentProvidingInvalid = 1501
        case badgeInputInvalid = 1600
    }

    public let code: Code
    /// What was wrong, in words a developer can act on.
    public let message: String

    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.message = (userInfo[NSLocalizedDescriptionKey] as? String) ?? "\(code)"
    }

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public static var errorDomain: String { UNErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    public var localizedDescription: String { message }
    public var description: String { "UNError \(code) (\(code.rawValue)): \(message)" }
}
