import Foundation

/// How the other party of a call is reached (CallKit's `CXHandle`).
public class CXHandle: NSObject, @unchecked Sendable {
    /// What kind of value a handle is.
    public enum HandleType: Int, Sendable {
        case generic = 1
        case phoneNumber = 2
        case emailAddress = 3
    }

    public let type: CXHandle.HandleType
    public let value: String

    public init(type: CXHandle.HandleType, value: String) {
        self.type = type
        self.value = value
        super.init()
    }
}
