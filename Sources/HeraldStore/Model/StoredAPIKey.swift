import Foundation

/// An API key as the store keeps it: only the SHA-256 of the secret, never the secret.
public struct StoredAPIKey: Sendable, Hashable, Codable {
    /// The key's public identifier (`key_…`), used to list and revoke it.
    public var id: String
    /// The app it acts for; `nil` for an admin key.
    public var appID: String?
    /// Lowercase hex SHA-256 of the secret.
    public var secretHash: String
    public var createdAt: Date

    public init(id: String, appID: String?, secretHash: String, createdAt: Date) {
        self.id = id
        self.appID = appID
        self.secretHash = secretHash
        self.createdAt = createdAt
    }

    /// True for a key that administers every app.
    public var isAdmin: Bool { appID == nil }
}

/// What ``HeraldStore/deleteAdminKey(id:)`` did.
public enum AdminKeyDeletion: Sendable, Hashable {
    case deleted
    case notFound
    /// It is the last admin key: kept.
    case last
}
