import Foundation
import HeraldStore

/// An app as the API shows it: credentials are summarized, never returned.
struct AppView: Encodable, Sendable {
    var id: String
    var name: String
    var bundleId: String
    var teamId: String?
    /// Per environment: what authenticates it, or `sandbox` when sends go to Herald's sandbox.
    var credentials: [String: String]
    var rateLimit: Int?
    var feedbackUrl: String?
    var createdAt: Date

    init(_ app: StoredApp) {
        id = app.id
        name = app.name
        bundleId = app.bundleID
        teamId = app.teamID
        credentials = Dictionary(uniqueKeysWithValues: ["production", "development"].map { name in
            (name, app.credential(for: .init(rawValue: name))?.summary ?? "sandbox")
        })
        rateLimit = app.rateLimit
        feedbackUrl = app.feedbackURL
        createdAt = app.createdAt
    }
}

/// A new API key: the secret is in this answer only.
struct KeyView: Encodable, Sendable {
    var id: String
    var appId: String?
    var createdAt: Date
    /// Only when the key is created.
    var secret: String?

    init(_ key: StoredAPIKey, secret: String? = nil) {
        id = key.id
        appId = key.appID
        createdAt = key.createdAt
        self.secret = secret
    }
}

/// `POST /v1/apps`'s answer: the app and its first key.
struct CreatedAppView: Encodable, Sendable {
    var app: AppView
    var apiKey: KeyView
}
