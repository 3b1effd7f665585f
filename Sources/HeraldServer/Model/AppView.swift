import Foundation
import HeraldCore
import HeraldStore

/// An app as the API shows it: credentials are summarized, never returned.
struct AppView: Encodable, Sendable {
    var id: String
    var name: String
    var bundleId: String
    var teamId: String?
    /// Per environment: what authenticates it, or `sandbox` when sends go to Herald's sandbox,
    /// or `none`.
    var credentials: [String: String]
    /// Per environment: where its notifications go, `apple`, `sandbox` or `none` (they fail with
    /// `NoCredentials`).
    var destinations: [String: String]
    var rateLimit: Int?
    var feedbackUrl: String?
    /// The webhook's signing secret: only in the answer that made it.
    var webhookSecret: String?
    /// The time zone of devices registered without one, for wall-clock schedules.
    var defaultTimeZone: String
    var createdAt: Date

    init(_ app: StoredApp, routes: APNsRoutes) {
        id = app.id
        name = app.name
        bundleId = app.bundleID
        teamId = app.teamID
        let environments: [APNsEnvironment] = [.production, .development]
        destinations = Dictionary(uniqueKeysWithValues: environments.map { ($0.rawValue, routes.destination(for: app, environment: $0)) })
        credentials = Dictionary(uniqueKeysWithValues: environments.map { environment in
            (environment.rawValue, app.credential(for: environment)?.summary ?? routes.destination(for: app, environment: environment))
        })
        rateLimit = app.rateLimit
        feedbackUrl = app.feedbackURL
        defaultTimeZone = app.defaultTimeZone ?? "UTC"
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
