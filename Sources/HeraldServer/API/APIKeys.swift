import Crypto
import Foundation
import HeraldCore
import HeraldStore
import Hummingbird

/// API keys: made with a random secret shown once, stored as its SHA-256, checked on every
/// request from `Authorization: Bearer …`.
struct APIKeys: Sendable {
    let store: any HeraldStore

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

    /// The key the request carries; 401 when it has none or an unknown one.
    func caller(of request: Request) async throws -> StoredAPIKey {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else { throw APIError.unauthorized }
        let secret = header.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        guard !secret.isEmpty, let key = try await store.key(secretHash: Self.hash(secret)) else { throw APIError.unauthorized }
        RequestTrace.current?.appID = key.appID ?? "admin"
        return key
    }

    /// The caller, who must hold the admin key.
    func admin(_ request: Request) async throws -> StoredAPIKey {
        let key = try await caller(of: request)
        guard key.isAdmin else { throw APIError.forbidden("this route needs the admin key; app keys act on their own app's devices and notifications") }
        return key
    }

    /// The app the caller's key belongs to.
    func app(_ request: Request) async throws -> String {
        let key = try await caller(of: request)
        guard let appID = key.appID else {
            throw APIError.forbidden("the admin key manages apps; devices, notifications and schedules need the app's own key")
        }
        return appID
    }
}
