import Foundation
import HTTPTypes
import HeraldStore
import Hummingbird

/// `POST /v1/session`: the key to sign in with.
struct SessionInput: Codable, Sendable, KnownFields {
    var key: String

    static var fields: [String: FieldShape] { ["key": .value] }
}

/// A console session as the page sees it: never its secret.
struct SessionView: Encodable, Sendable {
    /// What calls that change something send in `X-CSRF-Token`.
    var csrfToken: String
    /// The app the session acts for; `nil` for the admin.
    var app: String?
    var admin: Bool
    var keyId: String
    var expiresAt: Date
}

extension HeraldServer {
    /// Signs a browser in with an API key: the answer sets the session cookie and gives the
    /// CSRF token.
    func signIn(_ request: Request) async throws -> Response {
        try ConsoleSessions.checkOrigin(request)
        // JSON only: another site's form cannot send it without the browser asking this server first.
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw APIError(.unsupportedMediaType, code: "json_only", "sign in with a JSON body {\"key\": …} and Content-Type: application/json")
        }
        let input = try await JSONBody.decode(SessionInput.self, from: request, limit: 4096)
        let secret = input.key.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !secret.isEmpty, let key = try await store.key(secretHash: APIKeys.hash(secret)) else {
            throw APIError(.unauthorized, code: "unknown_key", "no such API key: give the admin key `herald serve` printed at its first start, or an app's key")
        }
        let now = configuration.clock.now
        let sessionSecret = ConsoleSessions.newSecret()
        let session = ConsoleSession(
            secretHash: APIKeys.hash(sessionSecret), keyID: key.id, createdAt: now, expiresAt: now.addingTimeInterval(ConsoleSessions.lifetime)
        )
        try await store.insertSession(session, keepingAtMost: ConsoleSessions.perKey)
        // The browser's previous session, if any, ends: one browser, one session.
        if let previous = ConsoleSessions.secret(in: request) { try? await store.deleteSession(secretHash: APIKeys.hash(previous)) }
        RequestTrace.current?.appID = key.appID ?? "admin"
        var response = try JSONBody.response(Self.sessionView(session, key: key, secret: sessionSecret), status: .created)
        response.headers[.setCookie] = ConsoleSessions.cookie(sessionSecret, secure: ConsoleSessions.isSecure(request, tls: configuration.tls != nil))
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The signed-in session, for the page to learn its CSRF token and whom it acts for.
    func currentSession(_ request: Request) async throws -> Response {
        guard let secret = ConsoleSessions.secret(in: request) else {
            throw APIError(.unauthorized, code: "not_signed_in", "no console session: sign in with POST /v1/session")
        }
        guard let (session, key) = try await store.session(secretHash: APIKeys.hash(secret), now: configuration.clock.now) else {
            throw ConsoleSessions.ended
        }
        var response = try JSONBody.response(Self.sessionView(session, key: key, secret: secret))
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// Signs out: the session ends in the store (when the call carries its CSRF token) and the
    /// cookie is cleared, whatever happens (clearing it is harmless even for a forged call).
    func signOut(_ request: Request) async throws -> Response {
        let clear = ConsoleSessions.cookie(nil, secure: ConsoleSessions.isSecure(request, tls: configuration.tls != nil))
        var response = Response(status: .noContent)
        do {
            if let secret = ConsoleSessions.secret(in: request) {
                try ConsoleSessions.checkForgery(request, secret: secret)
                try await store.deleteSession(secretHash: APIKeys.hash(secret))
            }
        } catch let error as APIError {
            response = try error.response()
        } catch {
            response = try APIError(.serviceUnavailable, code: "store_unavailable", "the session could not be ended in the store: \(error)").response()
        }
        response.headers[.setCookie] = clear
        return response
    }

    private static func sessionView(_ session: ConsoleSession, key: StoredAPIKey, secret: String) -> SessionView {
        SessionView(csrfToken: ConsoleSessions.csrfToken(for: secret), app: key.appID, admin: key.isAdmin, keyId: key.id, expiresAt: session.expiresAt)
    }
}
