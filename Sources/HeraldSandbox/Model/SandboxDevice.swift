import Foundation
import HeraldCore

/// A device token as the sandbox knows it: registered for one topic in one environment.
public struct SandboxDevice: Sendable, Hashable, Codable {
    public var token: String
    /// The topic pushes must name: the bundle id plus the push type's suffix for VoIP, Live
    /// Activity and the other suffixed types.
    public var topic: String
    public var environment: APNsEnvironment
    public var online: Bool
    public var registeredAt: Date
    /// Set when the token was unregistered: APNs then answers 410 with this time.
    public var unregisteredAt: Date?
    /// True when the token expired rather than being unregistered (410 `ExpiredToken`).
    public var expired: Bool

    public init(token: String, topic: String, environment: APNsEnvironment, online: Bool = true, registeredAt: Date) {
        self.token = token
        self.topic = topic
        self.environment = environment
        self.online = online
        self.registeredAt = registeredAt
        self.unregisteredAt = nil
        self.expired = false
    }
}
