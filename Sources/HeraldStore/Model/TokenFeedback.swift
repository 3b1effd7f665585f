import Foundation

/// APNs said a token is no good: deactivate it (410) or flag it (bad token, wrong topic).
public struct TokenFeedback: Sendable, Hashable, Codable {
    public var appID: String
    public var token: String
    /// ``DeviceState/unregistered`` or ``DeviceState/invalid``.
    public var state: DeviceState
    public var reason: String
    /// For 410: when APNs learned the token stopped being valid. A registration after it wins.
    public var timestamp: Date

    public init(appID: String, token: String, state: DeviceState, reason: String, timestamp: Date) {
        self.appID = appID
        self.token = token
        self.state = state
        self.reason = reason
        self.timestamp = timestamp
    }
}
