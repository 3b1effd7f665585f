import Foundation
import HeraldCore

/// An app the server sends for: its bundle id (the `apns-topic`), its Apple team and how it
/// authenticates to APNs in each environment.
public struct StoredApp: Sendable, Hashable, Codable {
    /// The server's identifier for the app (`app_…`).
    public var id: String
    /// A human name, shown in reports.
    public var name: String
    /// The bundle id; the `apns-topic` of its alert notifications.
    public var bundleID: String
    /// The Apple Developer team id.
    public var teamID: String?
    /// Credentials per environment; an environment without one goes to the in-process sandbox
    /// when the server has one.
    public var credentials: [AppCredential]
    /// Notifications per second at most (`nil`: no limit).
    public var rateLimit: Int?
    /// Where invalid tokens are announced (POST, JSON).
    public var feedbackURL: String?
    /// The key of the webhook's `Herald-Signature` (shown once, when made).
    public var webhookSecret: String?
    /// The time zone wall-clock schedules use for devices that did not give one (nil: UTC).
    public var defaultTimeZone: String?
    public var createdAt: Date

    public init(
        id: String, name: String, bundleID: String, teamID: String? = nil, credentials: [AppCredential] = [],
        rateLimit: Int? = nil, feedbackURL: String? = nil, createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.bundleID = bundleID
        self.teamID = teamID
        self.credentials = credentials
        self.rateLimit = rateLimit
        self.feedbackURL = feedbackURL
        self.createdAt = createdAt
    }

    /// The credential for `environment`, if the app has one.
    public func credential(for environment: APNsEnvironment) -> AppCredential? {
        credentials.first { $0.environment == environment }
    }
}
