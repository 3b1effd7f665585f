/// Why an app folder could not be installed on the simulated device.
public enum AppBundleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file exists but is not what it should be.
    case unreadable(path: String, reason: String)
    /// A required file or key is missing.
    case missing(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path) \(reason)"
        case .missing(let what): what
        }
    }
}
