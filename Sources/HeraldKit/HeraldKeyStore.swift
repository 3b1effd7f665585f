#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import Foundation

/// Where the device's end-to-end encryption key lives: the app makes it and registers its public
/// half with `herald serve`; the notification service extension reads it to open sealed alerts.
/// Both processes must see the same store (on iOS, an App Group container).
public protocol HeraldKeyStore: Sendable {
    /// The device's key, or `nil` before one was made.
    func privateKey() throws -> Curve25519.KeyAgreement.PrivateKey?
    /// Makes and keeps a new key.
    func makeKey() throws -> Curve25519.KeyAgreement.PrivateKey
}

extension HeraldKeyStore {
    /// The key, made on first use.
    public func existingOrNewKey() throws -> Curve25519.KeyAgreement.PrivateKey {
        try privateKey() ?? makeKey()
    }
}

/// Keeps the key as a file readable only by the app's user (`0600`), in a folder both the app
/// and its extension can read: on iOS
/// `FileManager.default.containerURL(forSecurityApplicationGroupIdentifier:)`.
public struct HeraldFileKeyStore: HeraldKeyStore {
    public let directory: URL
    var file: URL { directory.appendingPathComponent("herald-device-key") }

    public init(directory: URL) {
        self.directory = directory
    }

    public func privateKey() throws -> Curve25519.KeyAgreement.PrivateKey? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: Data(contentsOf: file))
    }

    /// Writes the new key in one step (a reader sees the old key or the new one, never part),
    /// readable after the first unlock so a push that arrives while the phone is locked can
    /// still be opened.
    public func makeKey() throws -> Curve25519.KeyAgreement.PrivateKey {
        let key = Curve25519.KeyAgreement.PrivateKey()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #if os(iOS) || os(watchOS) || os(visionOS)
        try key.rawRepresentation.write(to: file, options: [.atomic, .completeFileProtectionUntilFirstUserAuthentication])
        #else
        try key.rawRepresentation.write(to: file, options: [.atomic])
        #endif
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return key
    }
}

/// A key held in memory: for tests, and for a key the app keeps elsewhere (the Keychain).
public struct HeraldFixedKeyStore: HeraldKeyStore {
    public let key: Curve25519.KeyAgreement.PrivateKey

    public init(_ key: Curve25519.KeyAgreement.PrivateKey) {
        self.key = key
    }

    public func privateKey() throws -> Curve25519.KeyAgreement.PrivateKey? { key }

    public func makeKey() throws -> Curve25519.KeyAgreement.PrivateKey { key }
}
