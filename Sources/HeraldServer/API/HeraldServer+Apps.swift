import Foundation
import HeraldStore
import Hummingbird

extension HeraldServer {
    func createApp(_ request: Request) async throws -> Response {
        _ = try await keys.admin(request)
        let input = try await JSONBody.decode(AppInput.self, from: request, limit: configuration.bodyLimit)
        guard input.name != nil, input.bundleId != nil else { throw APIError.badRequest("an app needs name and bundleId") }
        var app = StoredApp(id: "app_" + APIKeys.randomID(), name: "", bundleID: "", createdAt: configuration.clock.now)
        try input.apply(to: &app)
        let webhookSecret = Self.giveWebhookSecret(to: &app)
        try await store.insertApp(app)
        let (key, secret) = try await keys.create(appID: app.id, now: configuration.clock.now)
        configuration.logger.info("app created", metadata: ["app": "\(app.id)", "bundle": "\(app.bundleID)"])
        var view = AppView(app, routes: routes)
        view.webhookSecret = webhookSecret
        return try JSONBody.response(CreatedAppView(app: view, apiKey: KeyView(key, secret: secret)), status: .created)
    }

    func listApps(_ request: Request) async throws -> Response {
        _ = try await keys.admin(request)
        return try JSONBody.response(["apps": try await store.apps().map { AppView($0, routes: routes) }])
    }

    /// The app, for the admin key or the app's own key; any other key sees 404.
    func visibleApp(_ request: Request, id: String) async throws -> StoredApp {
        let caller = try await keys.caller(of: request)
        guard caller.isAdmin || caller.appID == id, let app = try await store.app(id: id) else {
            throw APIError.notFound("no app '\(id)'")
        }
        return app
    }

    func showApp(_ request: Request, id: String) async throws -> Response {
        try JSONBody.response(AppView(try await visibleApp(request, id: id), routes: routes))
    }

    func updateApp(_ request: Request, id: String) async throws -> Response {
        _ = try await keys.admin(request)
        guard var app = try await store.app(id: id) else { throw APIError.notFound("no app '\(id)'") }
        let input = try await JSONBody.decode(AppInput.self, from: request, limit: configuration.bodyLimit)
        try input.apply(to: &app)
        let webhookSecret = Self.giveWebhookSecret(to: &app)
        try await store.updateApp(app)
        worker.appChanged(id)
        var view = AppView(app, routes: routes)
        view.webhookSecret = webhookSecret
        return try JSONBody.response(view)
    }

    /// `POST /v1/apps/{app}/webhook-secret`: a new signing secret for the app's webhook, shown
    /// in this answer only; the old one stops signing at once.
    func rotateWebhookSecret(_ request: Request, id: String) async throws -> Response {
        _ = try await keys.admin(request)
        guard var app = try await store.app(id: id) else { throw APIError.notFound("no app '\(id)'") }
        app.webhookSecret = WebhookSignature.newSecret()
        try await store.updateApp(app)
        worker.appChanged(id)
        return try JSONBody.response(["webhookSecret": app.webhookSecret!], status: .created)
    }

    /// An app given a webhook URL gets a signing secret, once; returns it when it is new.
    static func giveWebhookSecret(to app: inout StoredApp) -> String? {
        guard app.feedbackURL != nil, app.webhookSecret == nil else { return nil }
        app.webhookSecret = WebhookSignature.newSecret()
        return app.webhookSecret
    }

    func createKey(_ request: Request, appID: String) async throws -> Response {
        _ = try await keys.admin(request)
        guard try await store.app(id: appID) != nil else { throw APIError.notFound("no app '\(appID)'") }
        let (key, secret) = try await keys.create(appID: appID, now: configuration.clock.now)
        return try JSONBody.response(KeyView(key, secret: secret), status: .created)
    }

    func listKeys(_ request: Request, appID: String) async throws -> Response {
        _ = try await keys.admin(request)
        guard try await store.app(id: appID) != nil else { throw APIError.notFound("no app '\(appID)'") }
        return try JSONBody.response(["keys": try await store.keys(appID: appID).map { KeyView($0) }])
    }

    func deleteKey(_ request: Request, appID: String, keyID: String) async throws -> Response {
        _ = try await keys.admin(request)
        guard try await store.deleteKey(id: keyID, appID: appID) else { throw APIError.notFound("app '\(appID)' has no key '\(keyID)'") }
        return Response(status: .noContent)
    }

    /// `DELETE /v1/apps/{app}`: the app and everything it owns (keys, devices, notifications
    /// and their history, schedules, webhook events) are deleted; queued deliveries are not sent.
    func deleteApp(_ request: Request, id: String) async throws -> Response {
        _ = try await keys.admin(request)
        guard try await store.deleteApp(id: id) else { throw APIError.notFound("no app '\(id)'") }
        worker.appChanged(id)
        configuration.logger.notice("app deleted", metadata: ["app": "\(id)"])
        return Response(status: .noContent)
    }

    // MARK: Admin keys

    /// `POST /v1/admin/keys`: another admin key (shown once). Rotating is creating one, moving
    /// to it, then deleting the old one.
    func createAdminKey(_ request: Request) async throws -> Response {
        _ = try await keys.admin(request)
        let (key, secret) = try await keys.create(appID: nil, now: configuration.clock.now)
        configuration.logger.notice("admin key created", metadata: ["key": "\(key.id)"])
        return try JSONBody.response(KeyView(key, secret: secret), status: .created)
    }

    func listAdminKeys(_ request: Request) async throws -> Response {
        _ = try await keys.admin(request)
        return try JSONBody.response(["keys": try await store.keys(appID: nil).map { KeyView($0) }])
    }

    /// `DELETE /v1/admin/keys/{key}`: revokes an admin key, but never the last one (that would
    /// lock everyone out; `herald serve admin-key --rotate` recovers a lost one).
    func deleteAdminKey(_ request: Request, keyID: String) async throws -> Response {
        _ = try await keys.admin(request)
        switch try await store.deleteAdminKey(id: keyID) {
        case .notFound: throw APIError.notFound("no admin key '\(keyID)'")
        case .last: throw APIError.conflict("'\(keyID)' is the last admin key; create another (POST /v1/admin/keys) before revoking it")
        case .deleted: break
        }
        configuration.logger.notice("admin key revoked", metadata: ["key": "\(keyID)"])
        return Response(status: .noContent)
    }
}
