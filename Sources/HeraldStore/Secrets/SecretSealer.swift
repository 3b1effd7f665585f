import Crypto
import Foundation

/// Encrypts the secrets a store keeps (Apple credentials, webhook secrets) with AES-256-GCM, so
/// a copy of the database alone does not give them away. The key comes from `HERALD_SECRET_KEY`
/// (32 bytes in base64 or hex) or from a key file made beside a SQLite database (mode 0600).
///
/// Rotation: start with the new key as the current one and the old one among `previous`; every
/// secret is read with whichever key opens it and written again with the current one at start
/// (``HeraldStore/resealSecrets()``), after which the old key can go. With several nodes, first
/// give every node the new key as a previous one (so all can read it), then make it current.
public struct SecretSealer: Sendable {
    /// What a sealed value starts with; values without it are plain (written before encryption
    /// was on) and are sealed at the next start.
    public static let prefix = "sealed:v1:"

    private let current: SymmetricKey
    private let previous: [SymmetricKey]

    /// A sealer with a 32-byte key, and older keys that may still open existing values.
    public init(key: [UInt8], previous: [[UInt8]] = []) throws(StoreError) {
        guard key.count == 32, previous.allSatisfy({ $0.count == 32 }) else {
            throw StoreError.secretKey("a secret key is 32 bytes (base64 or hex); got \(key.count)")
        }
        current = SymmetricKey(data: key)
        self.previous = previous.map { SymmetricKey(data: $0) }
    }

    /// A key as written in `HERALD_SECRET_KEY`: 32 bytes in base64 or in hex.
    public static func parseKey(_ text: String) throws(StoreError) -> [UInt8] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.count == 64, trimmed.allSatisfy(\.isHexDigit) {
            var bytes: [UInt8] = []
            var index = trimmed.startIndex
            while index < trimmed.endIndex {
                let next = trimmed.index(index, offsetBy: 2)
                bytes.append(UInt8(trimmed[index..<next], radix: 16)!)
                index = next
            }
            return bytes
        }
        guard let data = Data(base64Encoded: trimmed), data.count == 32 else {
            throw StoreError.secretKey("HERALD_SECRET_KEY must be 32 bytes in base64 (openssl rand -base64 32) or hex (openssl rand -hex 32)")
        }
        return Array(data)
    }

    /// The sealer of the key file at `path`, made (32 random bytes, base64, mode 0600) if there
    /// is none.
    public static func keyFile(at path: String, previous: [[UInt8]] = []) throws(StoreError) -> SecretSealer {
        if FileManager.default.fileExists(atPath: path) {
            // Never replaced: a new key would make every sealed secret unreadable.
            guard let text = FileManager.default.contents(atPath: path) else {
                throw StoreError.secretKey("cannot read the key file \(path); its key seals the database's secrets")
            }
            return try SecretSealer(key: parseKey(String(decoding: text, as: UTF8.self)), previous: previous)
        }
        let key = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        let text = Data((Data(key).base64EncodedString() + "\n").utf8)
        guard FileManager.default.createFile(atPath: path, contents: text, attributes: [.posixPermissions: 0o600]) else {
            throw StoreError.secretKey("cannot create the key file \(path): the database's folder must be writable (or set HERALD_SECRET_KEY)")
        }
        return try SecretSealer(key: key, previous: previous)
    }

    /// `text` encrypted with the current key.
    public func seal(_ text: String) throws -> String {
        let box = try AES.GCM.seal(Data(text.utf8), using: current)
        return Self.prefix + box.combined!.base64EncodedString()
    }

    /// `text` decrypted (a plain value is returned as it is).
    public func open(_ text: String) throws(StoreError) -> String {
        guard text.hasPrefix(Self.prefix) else { return text }
        guard let data = Data(base64Encoded: String(text.dropFirst(Self.prefix.count))), let box = try? AES.GCM.SealedBox(combined: data) else {
            throw StoreError.secretKey("a sealed secret in the store is damaged: set the app's credentials or webhook secret again (PATCH /v1/apps/{app})")
        }
        for key in [current] + previous {
            if let plain = try? AES.GCM.open(box, using: key) { return String(decoding: plain, as: UTF8.self) }
        }
        throw StoreError.secretKey(
            "the store's secrets were sealed with another key: set HERALD_SECRET_KEY to the key they were sealed with (or keep it in HERALD_SECRET_KEY_PREVIOUS while rotating)"
        )
    }
}

extension StoredApp {
    /// The app with its credentials and webhook secret sealed.
    func sealed(with sealer: SecretSealer?) throws -> StoredApp {
        guard let sealer else { return self }
        return try mapSecrets { try sealer.seal($0) }
    }

    /// The app with its credentials and webhook secret opened. Without a sealer, a sealed value
    /// is an error (a node started without the key must not take the sealed text for the key).
    func opened(with sealer: SecretSealer?) throws -> StoredApp {
        guard let sealer else {
            return try mapSecrets { value in
                guard !value.hasPrefix(SecretSealer.prefix) else {
                    throw StoreError.secretKey("the store's secrets are sealed: set HERALD_SECRET_KEY to the key they were sealed with")
                }
                return value
            }
        }
        return try mapSecrets { try sealer.open($0) }
    }

    private func mapSecrets(_ transform: (String) throws -> String) throws -> StoredApp {
        var app = self
        app.webhookSecret = try webhookSecret.map(transform)
        app.credentials = try credentials.map { credential in
            var credential = credential
            switch credential.secret {
            case .token(let keyID, let pem): credential.secret = .token(keyID: keyID, pem: try transform(pem))
            case .pkcs12(let base64, let password): credential.secret = .pkcs12(base64: try transform(base64), password: try password.map(transform))
            }
            return credential
        }
        return app
    }
}
