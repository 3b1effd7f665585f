import Foundation

/// What APNs will make of a provider token, and why: ``ProviderTokenVerifier``'s verdict, with
/// notes on the token's shape (the forms popular clients send and whether APNs accepts them)
/// and on its age. `herald token --verify` prints it.
///
/// ```swift
/// let report = ProviderTokenReport(jwt: token, verifier: ProviderTokenVerifier(), now: Date())
/// report.isAccepted   // true
/// report.notes        // ["iat is a string of digits, as APNSwift sends it; APNs accepts it", …]
/// ```
public struct ProviderTokenReport: Sendable {
    /// Accepted (with what was verified), or the APNs reason and why.
    public let verdict: Result<VerifiedProviderToken, ProviderTokenRejection>
    /// One sentence per finding, in the token's order: header, claims, signature, age.
    public let notes: [String]

    /// True when APNs accepts the token.
    public var isAccepted: Bool {
        if case .success = verdict { return true }
        return false
    }

    /// Inspects `text`: a compact JWT, or an `authorization` header value (`bearer <jwt>`).
    public init(jwt text: String, verifier: ProviderTokenVerifier, now: Date) {
        var jwt = text.trimmingWhitespace()
        var notes: [String] = []
        if jwt.lowercased().hasPrefix("bearer ") {
            jwt = String(jwt.dropFirst("bearer ".count)).trimmingWhitespace()
            notes.append("read from an authorization header value")
        }
        verdict = verifier.verify(jwt: jwt, now: now)
        guard case .success(let decoded) = DecodedJWT.decode(jwt) else {
            self.notes = notes
            return
        }
        notes += Self.headerNotes(decoded.header)
        notes += Self.claimNotes(decoded.claims)
        notes += Self.signatureNotes(decoded.signature, checked: !verifier.keys.isEmpty)
        if let value = decoded.issuedAtValue, let issuedAt = IssuedAt(value) {
            notes += Self.ageNotes(issuedAt: Date(timeIntervalSince1970: TimeInterval(issuedAt.seconds)), now: now, maximumAge: verifier.maximumAge)
        }
        self.notes = notes
    }

    static func headerNotes(_ header: JSONObject) -> [String] {
        var notes: [String] = []
        let shown = ["alg", "kid", "typ"].compactMap { key in header[key].map { "\(key) \($0.stringValue ?? $0.jsonString)" } }
        notes.append("header: " + (shown.isEmpty ? "no alg, kid or typ" : shown.joined(separator: ", ")))
        if let type = header["typ"]?.stringValue, type != "JWT" {
            notes.append("typ is '\(type)'; APNs ignores typ, most clients send JWT or nothing")
        }
        let others = header.keys.filter { !["alg", "kid", "typ"].contains($0) }
        if !others.isEmpty { notes.append("header fields APNs ignores: \(others.joined(separator: ", "))") }
        return notes
    }

    static func claimNotes(_ claims: JSONObject) -> [String] {
        var notes: [String] = []
        // Only forms the verifier reads get a note: what it refuses, the verdict explains.
        if let iat = claims["iat"], let issuedAt = IssuedAt(iat) {
            switch issuedAt.form {
            case .integer:
                notes.append("iat \(iat.jsonString) is a JSON integer, as Apple documents (node-apn, apns2 and gorush, aioapns and Pushy send this)")
            case .number:
                notes.append("iat \(iat.jsonString) is a number with a fraction or an exponent, as PyAPNs2 sends time.time(); APNs accepts it (read down to the second)")
            case .digitString:
                notes.append("iat is a string of digits, as APNSwift sends it; APNs accepts it")
            }
        }
        let others = claims.keys.filter { $0 != "iss" && $0 != "iat" }
        if others == ["kid"] {
            notes.append("claims APNs ignores: kid (APNSwift repeats the key id there)")
        } else if !others.isEmpty {
            notes.append("claims APNs ignores: \(others.joined(separator: ", "))")
        }
        return notes
    }

    static func signatureNotes(_ signature: [UInt8], checked: Bool) -> [String] {
        var note: String
        if signature.count == 64 {
            note = "signature: 64 bytes (r and s), as JOSE specifies"
        } else if ProviderTokenVerifier.signature(signature) != nil {
            note = "signature: DER-encoded (\(signature.count) bytes), as Java's SHA256withECDSA makes it (Pushy); APNs accepts it"
        } else {
            return ["signature: \(signature.count) bytes, neither r and s nor DER"]
        }
        note += checked ? "" : "; not checked (give the .p8 key to check it)"
        return [note]
    }

    static func ageNotes(issuedAt: Date, now: Date, maximumAge: TimeInterval) -> [String] {
        let age = Int(now.timeIntervalSince(issuedAt).rounded())
        let formatter = ISO8601DateFormatter()
        var notes = ["issued at \(formatter.string(from: issuedAt)), \(age >= 0 ? "\(Self.duration(age)) ago" : "\(Self.duration(-age)) in the future by this machine's clock")"]
        let limit = Int(maximumAge)
        let refresh = Int(ProviderTokenSource.minimumRefreshInterval)
        if age >= 0, age <= limit {
            notes.append("APNs accepts it for \(Self.duration(limit - age)) more; refresh it before then")
            if age < refresh {
                notes.append("a new token for this key and team is allowed in \(Self.duration(refresh - age)) (20 minutes after iat); sooner, APNs answers 429 TooManyProviderTokenUpdates")
            }
        }
        return notes
    }

    /// `42 s`, `17 min`, `2 h 5 min`.
    static func duration(_ seconds: Int) -> String {
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7200 { return "\(seconds / 60) min" }
        return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
    }
}
