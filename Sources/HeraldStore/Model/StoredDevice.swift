import Foundation
import HeraldCore

/// A device token registered by an app, with what the server targets it by.
public struct StoredDevice: Sendable, Hashable, Codable {
    public var appID: String
    /// The token as lowercase hex.
    public var token: String
    public var environment: APNsEnvironment
    public var kind: DeviceKind
    /// The app's own user id, to send to every device of a user.
    public var userID: String?
    public var tags: [String]
    /// A BCP 47 language tag such as `zh-Hans-CN`, to choose the payload variant.
    public var locale: String?
    /// An IANA time zone such as `Asia/Shanghai`, for wall-clock schedules.
    public var timeZone: String?
    public var appVersion: String?
    /// The device's Curve25519 public key (base64) for alerts sealed end to end, if the app
    /// registered one.
    public var encryptionKey: String?
    /// The last time the app registered the token.
    public var registeredAt: Date
    public var state: DeviceState
    /// Why the state changed (`Unregistered`, `BadDeviceToken`…).
    public var stateReason: String?
    public var stateChangedAt: Date?

    public init(
        appID: String, token: String, environment: APNsEnvironment, kind: DeviceKind = .alert, userID: String? = nil,
        tags: [String] = [], locale: String? = nil, timeZone: String? = nil, appVersion: String? = nil,
        registeredAt: Date, state: DeviceState = .active, stateReason: String? = nil, stateChangedAt: Date? = nil,
        encryptionKey: String? = nil
    ) {
        self.encryptionKey = encryptionKey
        self.appID = appID
        self.token = token
        self.environment = environment
        self.kind = kind
        self.userID = userID
        self.tags = tags
        self.locale = locale
        self.timeZone = timeZone
        self.appVersion = appVersion
        self.registeredAt = registeredAt
        self.state = state
        self.stateReason = stateReason
        self.stateChangedAt = stateChangedAt
    }
}
