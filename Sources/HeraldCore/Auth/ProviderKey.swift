import Crypto
import Foundation

/// An APNs authentication key: the P-256 private key of Apple's `.p8` file with its key id and
/// team id.
///
/// ```swift
/// let key = try ProviderKey(contentsOfFile: "AuthKey_ABC123DEFG.p8", teamID: "DEF123GHIJ")
/// key.keyID // "ABC123DEFG", taken from Apple's file name
/// ```
public struct ProviderKey: Sendable {
    /// The 10-character key id Apple shows beside the key.
    public let keyID: String
    /// The 10-character team id of the developer account.
    public let teamID: String
    /// The signing key.
    public let privateKey: P256.Signing.PrivateKey

    /// The public half, for verification.
    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }

    public init(privateKey: P256.Signing.PrivateKey, keyID: String, teamID: String) throws(ProviderKeyError) {
        try Self.checkIdentifier(keyID, kind: "key id")
        try Self.checkIdentifier(teamID, kind: "team id")
        self.privateKey = privateKey
        self.keyID = keyID
        self.teamID = teamID
    }

    /// Reads a key from the text of a `.p8` file (PKCS#8 PEM).
    public init(pem: String, keyID: String, teamID: String) throws(ProviderKeyError) {
        try self.init(privateKey: Self.parsePEM(pem), keyID: keyID, teamID: teamID)
    }

    /// Reads a `.p8` file; the key id defaults to the one in Apple's file name `AuthKey_<KEYID>.p8`.
    public init(contentsOfFile path: String, keyID: String? = nil, teamID: String) throws(ProviderKeyError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .fileUnreadable(path)
        }
        guard let keyID = keyID ?? Self.keyID(fromFileName: path) else {
            throw .keyIDUnknown(path)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            if data.first == 0x30 { throw .binaryFile(path) }
            throw .notPEM(found: "binary data")
        }
        try self.init(pem: text, keyID: keyID, teamID: teamID)
    }

    /// The key id in Apple's file name `AuthKey_ABC123DEFG.p8`, if the name has that form.
    public static func keyID(fromFileName path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.hasPrefix("AuthKey_"), name.hasSuffix(".p8") else { return nil }
        let id = String(name.dropFirst("AuthKey_".count).dropLast(".p8".count))
        return (try? checkIdentifier(id, kind: "key id")) != nil ? id : nil
    }

    /// Checks a key id or team id: 10 characters, A–Z and 0–9.
    public static func checkIdentifier(_ value: String, kind: String) throws(ProviderKeyError) {
        let valid = value.count == 10 && value.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) }
        if !valid { throw .badIdentifier(kind: kind, value: value) }
    }

    static func parsePEM(_ text: String) throws(ProviderKeyError) -> P256.Signing.PrivateKey {
        let trimmed = text.trimmingWhitespace()
        guard let begin = trimmed.range(of: "-----BEGIN ") else {
            throw .notPEM(found: trimmed.isEmpty ? "an empty file" : "text without a -----BEGIN … line")
        }
        let labelEnd = trimmed[begin.upperBound...].range(of: "-----")
        let label = labelEnd.map { String(trimmed[begin.upperBound..<$0.lowerBound]) } ?? ""
        switch label {
        case "PRIVATE KEY", "EC PRIVATE KEY":
            break
        case "CERTIFICATE":
            throw .wrongPEMKind(label, hint: "a certificate is for certificate authentication (--cert); token authentication needs the .p8 key")
        case "PUBLIC KEY":
            throw .wrongPEMKind(label, hint: "this is the public half; signing needs the private key from the .p8 file")
        case "ENCRYPTED PRIVATE KEY":
            throw .wrongPEMKind(label, hint: "decrypt it first (openssl pkcs8 -in key.pem -out AuthKey.p8 -nocrypt)")
        case "RSA PRIVATE KEY":
            throw .wrongPEMKind(label, hint: "APNs tokens are signed with ES256, which needs a P-256 EC key")
        default:
            throw .wrongPEMKind(label, hint: "expected the .p8 file Apple lets you download once")
        }
        let body = trimmed.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined().trimmingWhitespace()
        guard let der = Data(base64Encoded: body), !der.isEmpty else {
            throw .corruptPEM
        }
        do {
            return try P256.Signing.PrivateKey(derRepresentation: der)
        } catch {
            if let key = try? P256.Signing.PrivateKey(pemRepresentation: trimmed) { return key }
            throw .notP256Key
        }
    }
}
