/// The `reason` of an APNs error answer, with its HTTP status, what it means, whether sending
/// again can help and what to do with the device token.
///
/// Unknown strings (reasons Apple adds later) are kept as they are: ``isKnown`` is false, and
/// ``retry(status:)`` and ``tokenAction(status:)`` fall back to what the HTTP status implies.
public struct APNsReason: RawRepresentable, Sendable, Hashable, Codable, Error, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}

extension APNsReason {
    // 400
    public static let badCollapseID = APNsReason(rawValue: "BadCollapseId")
    public static let badDeviceToken = APNsReason(rawValue: "BadDeviceToken")
    public static let badExpirationDate = APNsReason(rawValue: "BadExpirationDate")
    public static let badMessageID = APNsReason(rawValue: "BadMessageId")
    public static let badPriority = APNsReason(rawValue: "BadPriority")
    public static let badTopic = APNsReason(rawValue: "BadTopic")
    public static let deviceTokenNotForTopic = APNsReason(rawValue: "DeviceTokenNotForTopic")
    public static let duplicateHeaders = APNsReason(rawValue: "DuplicateHeaders")
    public static let idleTimeout = APNsReason(rawValue: "IdleTimeout")
    public static let invalidPushType = APNsReason(rawValue: "InvalidPushType")
    public static let missingDeviceToken = APNsReason(rawValue: "MissingDeviceToken")
    public static let missingTopic = APNsReason(rawValue: "MissingTopic")
    public static let payloadEmpty = APNsReason(rawValue: "PayloadEmpty")
    public static let topicDisallowed = APNsReason(rawValue: "TopicDisallowed")
    // 403
    public static let badCertificate = APNsReason(rawValue: "BadCertificate")
    public static let badCertificateEnvironment = APNsReason(rawValue: "BadCertificateEnvironment")
    public static let expiredProviderToken = APNsReason(rawValue: "ExpiredProviderToken")
    public static let forbidden = APNsReason(rawValue: "Forbidden")
    public static let invalidProviderToken = APNsReason(rawValue: "InvalidProviderToken")
    public static let missingProviderToken = APNsReason(rawValue: "MissingProviderToken")
    public static let unrelatedKeyIDInToken = APNsReason(rawValue: "UnrelatedKeyIdInToken")
    /// The token's key is not enabled for this environment, as APNs spells it in its answers
    /// (seen in the field; APNSwift added it in PR #229 from a real answer). Herald's sandbox
    /// sends this spelling.
    public static let badEnvironmentKeyInToken = APNsReason(rawValue: "BadEnvironmentKeyInToken")
    /// The same reason as Apple's documentation table spells it; read as
    /// ``badEnvironmentKeyInToken`` (same status and advice), never sent by the sandbox.
    public static let badEnvironmentKeyIDInToken = APNsReason(rawValue: "BadEnvironmentKeyIdInToken")
    // 404, 405
    public static let badPath = APNsReason(rawValue: "BadPath")
    public static let methodNotAllowed = APNsReason(rawValue: "MethodNotAllowed")
    // 410
    public static let expiredToken = APNsReason(rawValue: "ExpiredToken")
    public static let unregistered = APNsReason(rawValue: "Unregistered")
    // 413
    public static let payloadTooLarge = APNsReason(rawValue: "PayloadTooLarge")
    // 429
    public static let tooManyProviderTokenUpdates = APNsReason(rawValue: "TooManyProviderTokenUpdates")
    public static let tooManyRequests = APNsReason(rawValue: "TooManyRequests")
    // 500, 503
    public static let internalServerError = APNsReason(rawValue: "InternalServerError")
    public static let serviceUnavailable = APNsReason(rawValue: "ServiceUnavailable")
    public static let shutdown = APNsReason(rawValue: "Shutdown")
    /// Not in Apple's table: Apple does not document what APNs answers to a body that is not a
    /// JSON object with `aps`. Herald's sandbox answers 400 `BadPayload`, and lint attaches it to
    /// those errors, so the choice is made in one place.
    public static let badPayload = APNsReason(rawValue: "BadPayload")

    /// Every reason Apple documents, grouped by status as in Apple's table, each spelt as APNs
    /// answers it (``badEnvironmentKeyInToken``, which the table spells
    /// ``badEnvironmentKeyIDInToken``).
    public static let known: [APNsReason] = [
        .badCollapseID, .badDeviceToken, .badExpirationDate, .badMessageID, .badPriority, .badTopic,
        .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
        .missingTopic, .payloadEmpty, .topicDisallowed,
        .badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden, .invalidProviderToken,
        .missingProviderToken, .unrelatedKeyIDInToken, .badEnvironmentKeyInToken,
        .badPath, .methodNotAllowed,
        .expiredToken, .unregistered,
        .payloadTooLarge,
        .tooManyProviderTokenUpdates, .tooManyRequests,
        .internalServerError,
        .serviceUnavailable, .shutdown,
    ]

    /// True for a reason Herald knows: Apple's documented reasons (in either spelling of
    /// ``badEnvironmentKeyInToken``) and ``badPayload``.
    public var isKnown: Bool { Self.info[rawValue] != nil }

    /// The spelling APNs sends for this reason: Apple's documentation spells one reason
    /// differently from the answers (``badEnvironmentKeyIDInToken``); both read as one.
    public var canonical: APNsReason {
        self == .badEnvironmentKeyIDInToken ? .badEnvironmentKeyInToken : self
    }

    /// The HTTP status APNs answers this reason with (`nil` for an unknown reason).
    public var status: Int? { Self.info[rawValue]?.status }

    /// What the reason means, in one sentence.
    public var meaning: String {
        Self.info[rawValue]?.meaning ?? "a reason APNs did not document when Herald was written"
    }

    /// Whether sending the same request again can succeed, and how (`.never` for an unknown
    /// reason; use ``retry(status:)`` when the answer's status is at hand).
    public var retry: RetryAdvice {
        Self.info[rawValue]?.retry ?? .never
    }

    /// What the provider should do with the device token.
    public var tokenAction: TokenAction {
        Self.info[rawValue]?.tokenAction ?? .keep
    }

    /// The retry advice for an answer with `status`: the reason's own when Herald knows it,
    /// otherwise what the status implies (429 and 5xx: after back-off).
    public func retry(status: Int) -> RetryAdvice {
        if let info = Self.info[rawValue] { return info.retry }
        return status == 429 || Self.isServerTrouble(status: status) ? .afterBackoff : .never
    }

    /// Whether an answer with `status` says APNs itself is unwell (500 InternalServerError, 503
    /// ServiceUnavailable, any 5xx), so that other notifications on the same route would fare
    /// no better; a 4xx, 429 TooManyRequests included (too many to one device), is about the
    /// notification or its device.
    public static func isServerTrouble(status: Int) -> Bool {
        status >= 500
    }

    /// The token action for an answer with `status`: the reason's own when Herald knows it,
    /// otherwise what the status implies (410: deactivate).
    public func tokenAction(status: Int) -> TokenAction {
        if let info = Self.info[rawValue] { return info.tokenAction }
        return status == 410 ? .deactivate : .keep
    }

    /// Whether APNs closes the connection after answering this reason (sent with GOAWAY).
    public var closesConnection: Bool {
        self == .idleTimeout || self == .shutdown || self == .badCertificate || self == .badCertificateEnvironment
    }
}

extension APNsReason {
    /// Whether sending a rejected notification again can succeed.
    public enum RetryAdvice: String, Sendable, Hashable, Codable {
        /// The request itself is wrong; sending it again fails the same way.
        case never
        /// Send again after waiting, with growing delays (throttling, server errors).
        case afterBackoff
        /// Send again on a new connection (the server is closing this one).
        case onNewConnection
        /// Mint a new provider token once, then send again.
        case afterNewProviderToken
    }

    /// What to do with the device token after this reason.
    public enum TokenAction: String, Sendable, Hashable, Codable {
        /// Nothing is wrong with the token.
        case keep
        /// Stop sending to the token unless the app registers it again after the 410 timestamp.
        case deactivate
        /// The token is malformed, of the other environment or of another app: flag it for review
        /// (do not delete blindly; check the environment first).
        case flag
    }

    struct Info {
        let status: Int
        let meaning: String
        let retry: RetryAdvice
        let tokenAction: TokenAction
    }

    static let info: [String: Info] = [
        "BadCollapseId": Info(status: 400, meaning: "The collapse identifier exceeds the maximum allowed size (64 bytes).", retry: .never, tokenAction: .keep),
        "BadDeviceToken": Info(status: 400, meaning: "The device token is invalid, or is a token of the other environment (development vs production).", retry: .never, tokenAction: .flag),
        "BadExpirationDate": Info(status: 400, meaning: "The apns-expiration value is not a valid UNIX time.", retry: .never, tokenAction: .keep),
        "BadMessageId": Info(status: 400, meaning: "The apns-id value is not a canonical UUID.", retry: .never, tokenAction: .keep),
        "BadPriority": Info(status: 400, meaning: "The apns-priority value is not 10, 5 or 1, or is not allowed for the push type.", retry: .never, tokenAction: .keep),
        "BadTopic": Info(status: 400, meaning: "The apns-topic is invalid.", retry: .never, tokenAction: .keep),
        "DeviceTokenNotForTopic": Info(status: 400, meaning: "The device token does not belong to the app named by apns-topic.", retry: .never, tokenAction: .flag),
        "DuplicateHeaders": Info(status: 400, meaning: "One or more headers are repeated.", retry: .never, tokenAction: .keep),
        "IdleTimeout": Info(status: 400, meaning: "The connection was idle too long; APNs closes it.", retry: .onNewConnection, tokenAction: .keep),
        "InvalidPushType": Info(status: 400, meaning: "The apns-push-type value is not one APNs supports.", retry: .never, tokenAction: .keep),
        "MissingDeviceToken": Info(status: 400, meaning: "The request path has no device token.", retry: .never, tokenAction: .keep),
        "MissingTopic": Info(status: 400, meaning: "The apns-topic header is required (token authentication, or a certificate with several topics) and is missing.", retry: .never, tokenAction: .keep),
        "PayloadEmpty": Info(status: 400, meaning: "The request has no payload.", retry: .never, tokenAction: .keep),
        "TopicDisallowed": Info(status: 400, meaning: "Pushing to this topic is not allowed.", retry: .never, tokenAction: .keep),
        "BadCertificate": Info(status: 403, meaning: "The client certificate is invalid.", retry: .never, tokenAction: .keep),
        "BadCertificateEnvironment": Info(status: 403, meaning: "The client certificate is for the other environment.", retry: .never, tokenAction: .keep),
        "ExpiredProviderToken": Info(status: 403, meaning: "The provider token is older than one hour; mint a new one.", retry: .afterNewProviderToken, tokenAction: .keep),
        "Forbidden": Info(status: 403, meaning: "The action is not allowed.", retry: .never, tokenAction: .keep),
        "InvalidProviderToken": Info(status: 403, meaning: "The provider token is malformed, its signature does not verify, or its key or team is unknown.", retry: .never, tokenAction: .keep),
        "MissingProviderToken": Info(status: 403, meaning: "No certificate was presented and the authorization header has no provider token.", retry: .never, tokenAction: .keep),
        "UnrelatedKeyIdInToken": Info(status: 403, meaning: "The token's key id is not related to the key first used on this connection (one team per connection).", retry: .never, tokenAction: .keep),
        "BadEnvironmentKeyInToken": Info(status: 403, meaning: "The token's key is not enabled for this environment (development or production).", retry: .never, tokenAction: .keep),
        "BadEnvironmentKeyIdInToken": Info(status: 403, meaning: "The token's key is not enabled for this environment (development or production).", retry: .never, tokenAction: .keep),
        "BadPath": Info(status: 404, meaning: "The request path is not /3/device/<token>.", retry: .never, tokenAction: .keep),
        "MethodNotAllowed": Info(status: 405, meaning: "Only POST is supported.", retry: .never, tokenAction: .keep),
        "ExpiredToken": Info(status: 410, meaning: "The device token has expired.", retry: .never, tokenAction: .deactivate),
        "Unregistered": Info(status: 410, meaning: "The device token is no longer active for the topic (app removed or notifications turned off).", retry: .never, tokenAction: .deactivate),
        "PayloadTooLarge": Info(status: 413, meaning: "The payload is larger than the push type allows (4096 bytes, 5120 for VoIP).", retry: .never, tokenAction: .keep),
        "TooManyProviderTokenUpdates": Info(status: 429, meaning: "The provider token changed too often (more than once in 20 minutes).", retry: .afterBackoff, tokenAction: .keep),
        "TooManyRequests": Info(status: 429, meaning: "Too many requests in a row to the same device token.", retry: .afterBackoff, tokenAction: .keep),
        "InternalServerError": Info(status: 500, meaning: "APNs had an internal error.", retry: .afterBackoff, tokenAction: .keep),
        "ServiceUnavailable": Info(status: 503, meaning: "APNs is unavailable.", retry: .afterBackoff, tokenAction: .keep),
        "Shutdown": Info(status: 503, meaning: "The APNs server is shutting down; use another connection.", retry: .onNewConnection, tokenAction: .keep),
        "BadPayload": Info(status: 400, meaning: "The payload is not a JSON object with an aps dictionary (Herald's answer where Apple documents none).", retry: .never, tokenAction: .keep),
    ]
}
