import Foundation

/// A signed-in browser of the console: the SHA-256 of the secret its cookie carries, the API
/// key it signed in with (revoking that key ends the session), and when it ends.
public struct ConsoleSession: Sendable, Hashable {
    /// Lowercase hex SHA-256 of the cookie's secret.
    public var secretHash: String
    /// The API key the browser signed in with.
    public var keyID: String
    public var createdAt: Date
    public var expiresAt: Date

    public init(secretHash: String, keyID: String, createdAt: Date, expiresAt: Date) {
        self.secretHash = secretHash
        self.keyID = keyID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
