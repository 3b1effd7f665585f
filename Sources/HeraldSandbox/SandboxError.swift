/// Why a sandbox operation was refused, in one sentence saying what is allowed.
public enum SandboxError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalid(String)
    case notFound(String)

    public var description: String {
        switch self {
        case .invalid(let message), .notFound(let message): message
        }
    }
}
