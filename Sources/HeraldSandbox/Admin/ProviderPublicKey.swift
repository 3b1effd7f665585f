import Crypto
import HeraldCore

/// Reads the key a sandbox verifies tokens with: a `.p8` private key or its public half.
enum ProviderPublicKey {
    static func parse(_ pem: String) throws(SandboxError) -> P256.Signing.PublicKey {
        if let key = try? P256.Signing.PublicKey(pemRepresentation: pem) { return key }
        do {
            return try ProviderKey(pem: pem, keyID: "AAAAAAAAAA", teamID: "AAAAAAAAAA").publicKey
        } catch {
            throw .invalid("the key must be a P-256 public key PEM or Apple's .p8 private key: \(error.description)")
        }
    }
}
