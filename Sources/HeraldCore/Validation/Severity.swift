/// How bad a diagnostic is.
public enum Severity: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    /// Worth knowing; nothing breaks.
    case info
    /// APNs accepts it, but the device silently does something other than intended.
    case warning
    /// APNs rejects the request.
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }
}
