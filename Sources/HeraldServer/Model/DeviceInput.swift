import Foundation
import HeraldCore
import HeraldStore

/// `PUT /v1/devices/{token}`: what the app tells the server about a token.
struct DeviceInput: Decodable, Sendable {
    var environment: String?
    var kind: String?
    var userId: String?
    var tags: [String]?
    var locale: String?
    var timeZone: String?
    var appVersion: String?
    /// The device's Curve25519 public key, base64 of its 32 bytes: alerts sent with `seal` are
    /// sealed for it (SealedAlert).
    var encryptionKey: String?

    static let maximumTags = 100

    /// The device to store, every field checked.
    func device(appID: String, token: String, now: Date) throws(APIError) -> StoredDevice {
        let environment = APNsEnvironment(rawValue: environment ?? "")
        guard environment == .production || environment == .development else {
            throw .badRequest("environment must be production or development (the aps-environment the app was built with)")
        }
        let kind = try DeviceKind(rawValue: kind ?? DeviceKind.alert.rawValue).orThrow(
            .badRequest("kind '\(kind ?? "")' is not one of \(DeviceKind.allowedValues)")
        )
        let tags = tags ?? []
        guard tags.count <= Self.maximumTags else { throw .badRequest("at most \(Self.maximumTags) tags") }
        for tag in tags where tag.isEmpty || tag.count > 64 {
            throw .badRequest("tag '\(tag)' must be 1 to 64 characters")
        }
        if let userId, userId.isEmpty || userId.count > 200 { throw .badRequest("userId must be 1 to 200 characters") }
        if let locale, !LocaleMatcher.isLanguageTag(locale) {
            throw .badRequest("locale '\(locale)' is not a language tag such as en, en-US or zh-Hans-CN")
        }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw .badRequest("timeZone '\(timeZone)' is not an IANA time zone such as Asia/Shanghai or America/New_York")
        }
        if let appVersion, appVersion.count > 64 { throw .badRequest("appVersion must be at most 64 characters") }
        if let encryptionKey {
            do { _ = try SealedAlert.publicKey(base64: encryptionKey) } catch { throw .badRequest("encryptionKey: \(error)") }
        }
        return StoredDevice(
            appID: appID, token: token, environment: environment, kind: kind, userID: userId, tags: tags,
            locale: locale.map(LocaleMatcher.canonical), timeZone: timeZone, appVersion: appVersion, registeredAt: now,
            encryptionKey: encryptionKey
        )
    }

    /// The token in a path, checked and written as lowercase hex.
    static func token(_ text: String) throws(APIError) -> String {
        do {
            return try DeviceToken(parsing: text).hex
        } catch {
            throw .badRequest("device token: \(error)")
        }
    }
}

extension Optional {
    func orThrow(_ error: APIError) throws(APIError) -> Wrapped {
        guard let self else { throw error }
        return self
    }
}

/// A device as the API shows it.
struct DeviceView: Encodable, Sendable {
    var token: String
    var environment: String
    var kind: String
    var userId: String?
    var tags: [String]
    var locale: String?
    var timeZone: String?
    var appVersion: String?
    var encryptionKey: String?
    var registeredAt: Date
    var state: String
    var stateReason: String?
    var stateChangedAt: Date?

    init(_ device: StoredDevice) {
        token = device.token
        environment = device.environment.rawValue
        kind = device.kind.rawValue
        userId = device.userID
        tags = device.tags
        locale = device.locale
        timeZone = device.timeZone
        appVersion = device.appVersion
        encryptionKey = device.encryptionKey
        registeredAt = device.registeredAt
        state = device.state.rawValue
        stateReason = device.stateReason
        stateChangedAt = device.stateChangedAt
    }
}

extension DeviceInput: KnownFields {
    static var fields: [String: FieldShape] { [
        "environment": .value, "kind": .value, "userId": .value, "tags": .value, "locale": .value, "timeZone": .value,
        "appVersion": .value, "encryptionKey": .value,
    ] }
}
