import Crypto
import Foundation
import HeraldCore
import HeraldStore
import HTTPTypes
import Hummingbird

/// API keys: made with a random secret shown once, stored as its SHA-256, checked on every
/// request from `Authorization: Bearer …`, or from the console's session cookie
/// (``ConsoleSessions``), which also needs its CSRF token on every call that changes something.
struct APIKeys: Sendable {
    let store: any HeraldStore
    let clock: any WallClock

    /// A new key for `appID` (`nil`: admin) and its secret.
    func create(appID: String?, now: Date) async throws -> (StoredAPIKey, secret: String) {
        var generator = SystemRandomNumberGenerator()
        let secret = (appID == nil ? "hk_admin_" : "hk_app_") + Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let key = StoredAPIKey(id: "key_" + Self.randomID(), appID: appID, secretHash: Self.hash(secret), createdAt: now)
        try await store.insertKey(key)
        return (key, secret)
    }

    static func hash(_ secret: String) -> String {
        SHA256.hash(data: Array(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func randomID() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<16).map { _ in alphabet.randomElement()! })
    }

    /// The key the request carries, or its console session signed in with; 401 when it has
    /// none or an unknown one, 403 when a session's call lacks its CSRF token.
    func caller(of request: Request) async throws -> StoredAPIKey {
        let key: StoredAPIKey
        // Only a Bearer header is a key: another scheme (a proxy's Basic auth, which browsers
        // repeat on every call) leaves the session cookie to say who calls.
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            let secret = header.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
            guard !secret.isEmpty, let found = try await store.key(secretHash: Self.hash(secret)) else { throw APIError.unauthorized }
            key = found
        } else if let secret = ConsoleSessions.secret(in: request) {
            guard let found = try await store.session(secretHash: Self.hash(secret), now: clock.now) else { throw ConsoleSessions.ended }
            try ConsoleSessions.checkForgery(request, secret: secret)
            key = found.key
        } else {
            throw APIError.unauthorized
        }
        RequestTrace.current?.appID = key.appID ?? "admin"
        return key
    }

    /// The caller and the app it acts on (see ``app(_:)``), the key read once.
    func callerAndApp(_ request: Request) async throws -> (key: StoredAPIKey, app: String?) {
        let key = try await caller(of: request)
        let named = request.headers[Self.appHeader]
        if let appID = key.appID {
            if let named, named != appID {
                throw APIError.forbidden("this key acts for app '\(appID)' only; the Herald-App header names '\(named)'")
            }
            return (key, appID)
        }
        guard let named else { return (key, nil) }
        guard try await store.app(id: named) != nil else { throw APIError.notFound("no app '\(named)' (from the Herald-App header)") }
        RequestTrace.current?.appID = named
        return (key, named)
    }

    /// The caller, who must hold the admin key.
    func admin(_ request: Request) async throws -> StoredAPIKey {
        let key = try await caller(of: request)
        guard key.isAdmin else { throw APIError.forbidden("this route needs the admin key; app keys act on their own app's devices and notifications") }
        return key
    }

    /// The app the caller acts on: its key's app, or for the admin key the app named in the
    /// `Herald-App` header (as the console does).
    func app(_ request: Request) async throws -> String {
        guard let appID = try await callerAndApp(request).app else {
            throw APIError.forbidden(
                "the admin key manages apps; for devices, notifications and schedules use the app's own key, or name the app in the Herald-App header"
            )
        }
        return appID
    }

    /// The app the caller acts on if any: as ``app(_:)``, but an admin key without a
    /// `Herald-App` header acts on none.
    func optionalApp(_ request: Request) async throws -> String? {
        try await callerAndApp(request).app
    }

    /// The header in which an admin key names the app it acts on.
    static let appHeader = HTTPField.Name("Herald-App")!
}
