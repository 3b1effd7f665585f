import Crypto
import Foundation
import HTTPTypes
import HeraldCore
import Hummingbird

/// The console's sign-in: a browser trades an API key for a session whose secret lives only in
/// an `HttpOnly`, `SameSite=Strict` cookie (never in a URL or in script-readable storage). The
/// store keeps the secret's SHA-256 and the key it signed in with, so signing out, the session's
/// end (12 hours) or revoking the key ends it on every node.
///
/// Forgery: every call made with the cookie that changes something carries the session's CSRF
/// token in `X-CSRF-Token` (derived from the secret, handed to the page by `GET /v1/session`),
/// and its `Origin`, when the browser sends one, must be this server's own.
enum ConsoleSessions {
    static let cookieName = "herald_session"
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!
    /// How long a session lasts from sign-in.
    static let lifetime: TimeInterval = 12 * 3600
    /// Sessions a key keeps at once; signing in once more ends the oldest.
    static let perKey = 20

    static let ended = APIError(.unauthorized, code: "session_ended", "the console session has ended (signed out, expired, or its key was revoked); sign in again")

    /// A new session's secret.
    static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return "hs_" + Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The CSRF token of the session whose secret is `secret`.
    static func csrfToken(for secret: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(("herald-csrf:" + secret).utf8))))
    }

    /// The session secret in the request's cookies, if any.
    static func secret(in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName {
                    let value = parts[1].trimmingCharacters(in: .whitespaces)
                    if !value.isEmpty { return value }
                }
            }
        }
        return nil
    }

    /// Refuses a call made with the cookie that could come from another site: one that changes
    /// something without the session's CSRF token, or from another origin.
    static func checkForgery(_ request: Request, secret: String) throws {
        try checkOrigin(request)
        guard ![.get, .head, .options].contains(request.method) else { return }
        guard let token = request.headers[csrfHeader], constantTimeEqual(token, csrfToken(for: secret)) else {
            throw APIError(
                .forbidden, code: "csrf_token_missing",
                "a console call that changes something needs the session's X-CSRF-Token header (from GET /v1/session)"
            )
        }
    }

    /// Refuses a request whose `Origin` is not this server (browsers send it on cross-site and
    /// on state-changing requests). The server is the request's host, or the host a reverse
    /// proxy says it forwarded (`X-Forwarded-Host`).
    static func checkOrigin(_ request: Request) throws {
        guard let origin = request.headers[.origin] else { return }
        let hosts = [request.head.authority, request.headers[forwardedHost]].compactMap { $0 }.map(normalized)
        guard let url = URL(string: origin), url.host != nil, let originAuthority = authority(of: url), hosts.contains(originAuthority) else {
            throw APIError(
                .forbidden, code: "cross_origin",
                "this call came from origin '\(origin)', not from this server (\(hosts.joined(separator: " or "))); behind a proxy, pass the Host header on"
            )
        }
    }

    static let forwardedHost = HTTPField.Name("X-Forwarded-Host")!
    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!

    /// `host:port` of an origin, lowercased, IPv6 in brackets, the scheme's default port left out.
    private static func authority(of url: URL) -> String? {
        guard var host = url.host?.lowercased() else { return nil }
        if host.contains(":") && !host.hasPrefix("[") { host = "[\(host)]" }
        let defaultPort = url.scheme == "https" ? 443 : 80
        return url.port.map { $0 == defaultPort ? host : "\(host):\($0)" } ?? host
    }

    /// A Host header's `host:port`, lowercased, the default ports left out.
    private static func normalized(_ host: String) -> String {
        let lowered = host.lowercased().trimmingCharacters(in: .whitespaces)
        for suffix in [":80", ":443"] where lowered.hasSuffix(suffix) { return String(lowered.dropLast(suffix.count)) }
        return lowered
    }

    /// Whether the browser reached this server over HTTPS: its own TLS, or a proxy's.
    static func isSecure(_ request: Request, tls: Bool) -> Bool {
        tls || request.headers[forwardedProto]?.lowercased() == "https"
    }

    /// The `Set-Cookie` value that stores `secret` (or, with `nil`, clears the cookie).
    static func cookie(_ secret: String?, secure: Bool) -> String {
        var parts = ["\(cookieName)=\(secret ?? "")", "Path=/", "HttpOnly", "SameSite=Strict", "Max-Age=\(secret == nil ? 0 : Int(lifetime))"]
        if secure { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }

    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
