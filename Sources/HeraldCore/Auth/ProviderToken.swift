import Crypto
import Foundation

/// A signed APNs provider token (ES256 JWT): header `{"alg":"ES256","kid":…}`, claims
/// `{"iss":<team id>,"iat":<seconds>}`.
public struct ProviderToken: Sendable, Hashable, CustomStringConvertible {
    public let keyID: String
    public let teamID: String
    /// The `iat` claim.
    public let issuedAt: Date
    /// The compact JWT, as it goes after `bearer `.
    public let jwt: String

    /// Signs a new token with `key`, issued at `issuedAt` (whole seconds).
    public init(signedWith key: ProviderKey, issuedAt: Date) throws(ProviderKeyError) {
        let seconds = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        let header: JSONValue = ["alg": "ES256", "kid": .string(key.keyID)]
        let claims: JSONValue = ["iss": .string(key.teamID), "iat": .number(JSONNumber(Int(seconds)))]
        let signingInput = Base64URL.encode(header.serialized) + "." + Base64URL.encode(claims.serialized)
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try key.privateKey.signature(for: Data(signingInput.utf8))
        } catch {
            throw .signingFailed(String(describing: error))
        }
        self.keyID = key.keyID
        self.teamID = key.teamID
        self.issuedAt = Date(timeIntervalSince1970: TimeInterval(seconds))
        self.jwt = signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// Takes back a token `key` signed earlier (kept between runs, say), after checking its
    /// signature, key id, team and age; `nil` when it is not such a token or is too old to use.
    public init?(reusing jwt: String, signedWith key: ProviderKey, now: Date) {
        let verifier = ProviderTokenVerifier(keys: [.init(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey)])
        guard case .success(let verified) = verifier.verify(jwt: jwt, now: now), verified.signatureChecked,
            verified.keyID == key.keyID, verified.teamID == key.teamID
        else { return nil }
        self.keyID = key.keyID
        self.teamID = key.teamID
        self.issuedAt = verified.issuedAt
        self.jwt = jwt
    }

    /// The `authorization` header value: `bearer <jwt>`.
    public var authorization: String { "bearer \(jwt)" }

    /// Seconds since the token was issued.
    public func age(at now: Date) -> TimeInterval { now.timeIntervalSince(issuedAt) }

    /// The token shortened for logs: key id, team and issue time, never the signature.
    public var description: String { "ProviderToken(kid: \(keyID), iss: \(teamID), iat: \(Int(issuedAt.timeIntervalSince1970)))" }
}
