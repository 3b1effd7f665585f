/// Which APNs a notification goes to; device tokens of one do not work on the other.
public struct APNsEnvironment: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Apps signed for distribution (App Store, TestFlight, ad hoc).
    public static let production = APNsEnvironment(rawValue: "production")
    /// Apps signed for development (run from Xcode); Apple calls this the sandbox.
    public static let development = APNsEnvironment(rawValue: "development")

    /// Apple's host for this environment.
    public var host: String {
        self == .production ? "api.push.apple.com" : "api.sandbox.push.apple.com"
    }

    /// The port Apple documents first (2197 is the alternative).
    public static let defaultPort = 443

    public var description: String { rawValue }
}
