import Foundation

/// What the linter knows besides the payload and headers.
public struct LintOptions: Sendable, Hashable {
    /// How the provider authenticates; `nil` when unknown (rules that depend on it are skipped).
    public var authentication: AuthenticationMethod?
    /// The current time, for rules about dates (`nil` skips them, keeping lint pure).
    public var now: Date?

    public init(authentication: AuthenticationMethod? = nil, now: Date? = nil) {
        self.authentication = authentication
        self.now = now
    }
}

/// How a provider proves who it is to APNs.
public enum AuthenticationMethod: String, Sendable, Hashable, Codable {
    /// A JWT signed with a `.p8` key, in the `authorization` header.
    case token
    /// A TLS client certificate.
    case certificate
}
