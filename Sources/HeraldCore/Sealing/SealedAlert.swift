import Crypto
import Foundation

/// An alert sealed for one device, end to end: APNs, Herald's logs and anyone between see only
/// ciphertext; the app's notification service extension opens it with the device's private key.
///
/// The format (`herald-sealed` in the payload, base64 of):
///
/// | bytes | what |
/// |---|---|
/// | 1 | version, 1 |
/// | 32 | the sender's ephemeral Curve25519 (X25519) public key |
/// | 12 + n + 16 | ChaChaPoly's combined box: nonce, ciphertext, tag |
///
/// The key is HKDF-SHA256 of the X25519 shared secret, salted with the ephemeral public key
/// followed by the device's public key, with the info `herald-alert-v1`, 32 bytes. The
/// plaintext is a JSON object with `title`, `subtitle` and `body` (strings, each optional). The
/// payload's visible alert is the text shown when the alert cannot be opened (a wrong key, a
/// damaged box). Swift-crypto on Linux is CryptoKit's API on Apple platforms, so both sides use
/// the same calls.
public struct SealedAlert: Sendable, Hashable, Codable {
    /// The payload key that carries the sealed alert.
    public static let payloadKey = "herald-sealed"
    static let version: UInt8 = 1
    static let info = Data("herald-alert-v1".utf8)

    public var title: String?
    public var subtitle: String?
    public var body: String?

    public init(title: String? = nil, subtitle: String? = nil, body: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
    }

    /// Why an alert could not be sealed or opened.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The device's public key is not 32 bytes of base64.
        case invalidPublicKey
        /// Not base64, too short, or an unknown version.
        case malformed(String)
        /// The box does not open with this key (wrong key, or the bytes were changed).
        case cannotOpen
        /// It opened, but the plaintext is not the JSON object this format carries.
        case invalidPlaintext

        public var description: String {
            switch self {
            case .invalidPublicKey: "the device's encryption key must be a Curve25519 public key: 32 bytes, base64, not a low-order point"
            case .malformed(let why): "the sealed alert is malformed: \(why)"
            case .cannotOpen: "the sealed alert does not open with this device's key (a wrong key, or the bytes were changed)"
            case .invalidPlaintext: "the sealed alert opened, but its plaintext is not a JSON object of title, subtitle and body"
            }
        }
    }

    /// Reads a device's public key as it registers it (base64 of the raw 32 bytes). A key no
    /// agreement can be made with (a low-order point such as all zeros) is refused here rather
    /// than failing each send.
    public static func publicKey(base64 text: String) throws(Failure) -> Curve25519.KeyAgreement.PublicKey {
        guard let data = Data(base64Encoded: text), data.count == 32,
              let key = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: data),
              (try? Curve25519.KeyAgreement.PrivateKey().sharedSecretFromKeyAgreement(with: key)) != nil else { throw .invalidPublicKey }
        return key
    }

    /// Seals this alert for the device with `publicKey`; returns the base64 text for the payload.
    public func seal(to publicKey: Curve25519.KeyAgreement.PublicKey) throws -> String {
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        let key = try Self.key(ours: ephemeral, theirs: publicKey, ephemeralPublic: ephemeral.publicKey, recipient: publicKey)
        var object = JSONObject()
        if let title { object["title"] = .string(title) }
        if let subtitle { object["subtitle"] = .string(subtitle) }
        if let body { object["body"] = .string(body) }
        let box = try ChaChaPoly.seal(Data(JSONValue.object(object).serialized), using: key)
        var sealed = Data([Self.version])
        sealed.append(ephemeral.publicKey.rawRepresentation)
        sealed.append(box.combined)
        return sealed.base64EncodedString()
    }

    /// Opens base64 text from a payload with the device's private key.
    public static func open(_ text: String, with privateKey: Curve25519.KeyAgreement.PrivateKey) throws(Failure) -> SealedAlert {
        guard let sealed = Data(base64Encoded: text) else { throw .malformed("not base64") }
        guard sealed.count >= 1 + 32 + 12 + 16 else { throw .malformed("\(sealed.count) bytes; at least 61 are needed") }
        guard sealed[sealed.startIndex] == version else { throw .malformed("version \(sealed[sealed.startIndex]); this code reads version \(version)") }
        let ephemeralBytes = sealed.dropFirst().prefix(32)
        guard let ephemeral = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: ephemeralBytes) else { throw .malformed("the ephemeral key is invalid") }
        let plaintext: Data
        do {
            let key = try key(ours: privateKey, theirs: ephemeral, ephemeralPublic: ephemeral, recipient: privateKey.publicKey)
            plaintext = try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: sealed.dropFirst(33)), using: key)
        } catch {
            throw .cannotOpen
        }
        guard let object = try? JSONParser().parse(Array(plaintext)).objectValue else { throw .invalidPlaintext }
        return SealedAlert(title: object["title"]?.stringValue, subtitle: object["subtitle"]?.stringValue, body: object["body"]?.stringValue)
    }

    private static func key(
        ours: Curve25519.KeyAgreement.PrivateKey, theirs: Curve25519.KeyAgreement.PublicKey,
        ephemeralPublic: Curve25519.KeyAgreement.PublicKey, recipient: Curve25519.KeyAgreement.PublicKey
    ) throws -> SymmetricKey {
        let secret = try ours.sharedSecretFromKeyAgreement(with: theirs)
        return secret.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: ephemeralPublic.rawRepresentation + recipient.rawRepresentation, sharedInfo: info, outputByteCount: 32
        )
    }
}
