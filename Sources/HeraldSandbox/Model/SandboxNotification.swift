import Foundation
import HeraldCore

/// A notification the sandbox accepted: what the provider sent and what became of it.
public struct SandboxNotification: Sendable, Hashable, Codable {
    /// The apns-id (echoed or generated).
    public var id: String
    /// The apns-unique-id (development only).
    public var uniqueID: String?
    public var token: String
    public var topic: String
    public var pushType: String?
    public var priority: Int
    public var collapseID: String?
    /// UNIX seconds; `nil` without the header, `0` for deliver-now-or-never.
    public var expiration: Int64?
    /// Every request header, lowercase names, in order.
    public var headers: [Header]
    /// The payload as sent.
    public var payload: String
    public var receivedAt: Date
    /// When the device got it; `nil` while stored for an offline device.
    public var deliveredAt: Date?

    public struct Header: Sendable, Hashable, Codable {
        public var name: String
        public var value: String
    }
}
