import Foundation

/// An event waiting in the outbox for an app's webhook: kept in the store until the receiver
/// takes it (2xx) or it has been retried for long enough, so restarts lose none.
public struct WebhookEvent: Sendable, Hashable {
    public var id: Int64
    public var appID: String
    /// The JSON body, exactly as it is sent and signed.
    public var body: String
    /// Attempts so far, this one included.
    public var attempts: Int
    public var createdAt: Date

    public init(id: Int64, appID: String, body: String, attempts: Int, createdAt: Date) {
        self.id = id
        self.appID = appID
        self.body = body
        self.attempts = attempts
        self.createdAt = createdAt
    }
}
