import Crypto
import Foundation

/// Checks provider tokens as APNs does and answers with the exact APNs reason on failure.
///
/// With no key registered every well-formed ES256 token is accepted without checking its
/// signature (a development convenience; ``VerifiedProviderToken/signatureChecked`` says so).
/// Once keys are registered, the token's `kid` must be one of them, its `iss` that key's team and
/// its signature valid.
///
/// ```swift
/// let verifier = ProviderTokenVerifier(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)])
/// switch verifier.verify(authorization: header, now: Date()) {
/// case .success(let token): …
/// case .failure(let rejection): rejection.reason // .expiredProviderToken
/// }
/// ```
public struct ProviderTokenVerifier: Sendable {
    /// A provider key APNs knows.
    public struct RegisteredKey: Sendable {
        public var keyID: String
        public var teamID: String
        public var publicKey: P256.Signing.PublicKey

        public init(keyID: String, teamID: String, publicKey: P256.Signing.PublicKey) {
            self.keyID = keyID
            self.teamID = teamID
            self.publicKey = publicKey
        }
    }

    /// Registered keys by key id.
    public private(set) var keys: [String: RegisteredKey]
    /// A token older than this is expired (APNs: one hour).
    public var maximumAge: TimeInterval = ProviderTokenSource.maximumTokenAge
    /// How far in the future `iat` may be, for clock differences.
    public var allowedClockSkew: TimeInterval = 5 * 60

    public init(keys: [RegisteredKey] = []) {
        self.keys = Dictionary(keys.map { ($0.keyID, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Registers (or replaces) a key.
    public mutating func register(_ key: RegisteredKey) {
        keys[key.keyID] = key
    }

    /// Verifies an `authorization` header value (`bearer <jwt>`); `nil` means the header is absent.
    public func verify(authorization: String?, now: Date) -> Result<VerifiedProviderToken, ProviderTokenRejection> {
        guard let authorization, !authorization.isEmpty else {
            return .failure(ProviderTokenRejection(.missingProviderToken, "no authorization header and no client certificate"))
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            return .failure(ProviderTokenRejection(.missingProviderToken, "the authorization header must be 'bearer <JWT>'"))
        }
        return verify(jwt: String(parts[1]).trimmingWhitespace(), now: now)
    }

    /// An ES256 signature as JOSE writes it (r and s, 32 bytes each) or DER-encoded, as Java's
    /// `SHA256withECDSA` makes it (Pushy sends that, and APNs accepts it).
    static func signature(_ bytes: [UInt8]) -> P256.Signing.ECDSASignature? {
        if bytes.count == 64 { return try? P256.Signing.ECDSASignature(rawRepresentation: bytes) }
        return try? P256.Signing.ECDSASignature(derRepresentation: bytes)
    }

    /// Verifies a compact JWT. Claims beyond `iss` and `iat` (APNSwift repeats `kid` there) are
    /// ignored, as APNs ignores them.
    public func verify(jwt: String, now: Date) -> Result<VerifiedProviderToken, ProviderTokenRejection> {
        let decoded: DecodedJWT
        switch DecodedJWT.decode(jwt) {
        case .success(let value): decoded = value
        case .failure(let rejection): return .failure(rejection)
        }
        guard decoded.algorithm == "ES256" else {
            return .failure(ProviderTokenRejection(.invalidProviderToken, "the token's alg is \(decoded.algorithm.map { "'\($0)'" } ?? "missing"); APNs accepts only ES256"))
        }
        guard let keyID = decoded.keyID, !keyID.isEmpty else {
            return .failure(ProviderTokenRejection(.invalidProviderToken, "the token's header has no kid (the 10-character key id)"))
        }
        guard let teamID = decoded.issuer, !teamID.isEmpty else {
            return .failure(ProviderTokenRejection(.invalidProviderToken, "the token's claims have no iss (the 10-character team id)"))
        }
        guard let issuedAtValue = decoded.issuedAtValue else {
            return .failure(ProviderTokenRejection(.invalidProviderToken, "the token's claims have no iat (issue time in UNIX seconds)"))
        }
        // The forms APNs accepts (IssuedAt), within a range a calendar holds.
        guard let issuedAtSeconds = IssuedAt(issuedAtValue)?.seconds else {
            let hint = IssuedAt.unitMistake(issuedAtValue).map { "that looks like \($0), and APNs wants UNIX seconds, such as 1700000000" }
            return .failure(ProviderTokenRejection(.invalidProviderToken, "the token's iat is \(issuedAtValue.jsonString); "
                + (hint ?? "it must be UNIX seconds, such as 1700000000")))
        }
        var signatureChecked = false
        if !keys.isEmpty {
            guard let key = keys[keyID] else {
                return .failure(ProviderTokenRejection(.invalidProviderToken, "no provider key with kid \(keyID) is registered"))
            }
            guard key.teamID == teamID else {
                return .failure(ProviderTokenRejection(.invalidProviderToken, "key \(keyID) belongs to team \(key.teamID), but the token's iss is \(teamID)"))
            }
            guard let signature = Self.signature(decoded.signature),
                key.publicKey.isValidSignature(signature, for: Data(decoded.signingInput.utf8))
            else {
                return .failure(ProviderTokenRejection(.invalidProviderToken, "the token's signature does not verify with key \(keyID)"))
            }
            signatureChecked = true
        } else if Self.signature(decoded.signature) == nil {
            return .failure(ProviderTokenRejection(.invalidProviderToken, "an ES256 signature is 64 bytes (r and s) or DER-encoded; this one is \(decoded.signature.count) bytes of neither"))
        }
        let issuedAt = Date(timeIntervalSince1970: TimeInterval(issuedAtSeconds))
        let age = now.timeIntervalSince(issuedAt)
        if age > maximumAge {
            return .failure(ProviderTokenRejection(.expiredProviderToken, "the token was issued \(Int(age)) s ago; APNs accepts tokens up to \(Int(maximumAge)) s old"))
        }
        if -age > allowedClockSkew {
            let hint = IssuedAt.unitMistake(issuedAtValue).map { "the token's iat \(issuedAtSeconds) looks like \($0), and APNs wants UNIX seconds" }
            return .failure(ProviderTokenRejection(.invalidProviderToken, hint ?? "the token's iat is \(Int(-age)) s in the future; check the provider's clock"))
        }
        return .success(VerifiedProviderToken(keyID: keyID, teamID: teamID, issuedAt: issuedAt, signatureChecked: signatureChecked))
    }
}

/// A token that passed verification.
public struct VerifiedProviderToken: Sendable, Hashable {
    public let keyID: String
    public let teamID: String
    public let issuedAt: Date
    /// False when no key was registered and the signature was not checked.
    public let signatureChecked: Bool

    /// True while the token is not older than APNs allows; a connection that caches a verified
    /// token calls this instead of verifying the signature again.
    public func isFresh(at now: Date, maximumAge: TimeInterval = ProviderTokenSource.maximumTokenAge) -> Bool {
        now.timeIntervalSince(issuedAt) <= maximumAge
    }
}

/// Why a provider token was refused: the APNs reason and a sentence for logs.
public struct ProviderTokenRejection: Error, Sendable, Hashable, CustomStringConvertible {
    public let reason: APNsReason
    public let detail: String

    public init(_ reason: APNsReason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    public var description: String { "\(reason): \(detail)" }
}

/// The parts of a compact JWT.
struct DecodedJWT {
    var header: JSONObject
    var claims: JSONObject
    var algorithm: String?
    var keyID: String?
    var issuer: String?
    var issuedAtValue: JSONValue?
    var signingInput: Substring
    var signature: [UInt8]

    static func decode(_ jwt: String) -> Result<DecodedJWT, ProviderTokenRejection> {
        let malformed = { (detail: String) in
            Result<DecodedJWT, ProviderTokenRejection>.failure(ProviderTokenRejection(.invalidProviderToken, detail))
        }
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            return malformed("a JWT has three base64url parts separated by '.', this has \(parts.count)")
        }
        guard let headerBytes = Base64URL.decode(parts[0]), let header = try? JSONParser(maximumDepth: 8).parse(headerBytes),
            case .object(let headerObject) = header
        else {
            return malformed("the JWT header is not base64url-encoded JSON")
        }
        guard let claimBytes = Base64URL.decode(parts[1]), let claims = try? JSONParser(maximumDepth: 8).parse(claimBytes),
            case .object(let claimObject) = claims
        else {
            return malformed("the JWT claims are not base64url-encoded JSON")
        }
        guard let signature = Base64URL.decode(parts[2]) else {
            return malformed("the JWT signature is not base64url")
        }
        let inputEnd = parts[1].endIndex
        return .success(DecodedJWT(
            header: headerObject,
            claims: claimObject,
            algorithm: header["alg"]?.stringValue,
            keyID: header["kid"]?.stringValue,
            issuer: claims["iss"]?.stringValue,
            issuedAtValue: claims["iat"],
            signingInput: jwt[jwt.startIndex..<inputEnd],
            signature: signature
        ))
    }
}
