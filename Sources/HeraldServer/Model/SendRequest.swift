import Crypto
import Foundation
import HeraldCore
import HeraldStore

/// `POST /v1/notifications` (and a schedule's notification): whom to send to, what, and how.
struct SendRequest: Codable, Sendable, Hashable {
    /// Exactly one of tokens, users, tags (with match) or all.
    struct Target: Codable, Sendable, Hashable {
        var tokens: [String]?
        var users: [String]?
        var tags: [String]?
        var match: String?
        var all: Bool?
    }

    /// The payload as APNs JSON, or built from a few fields.
    struct Content: Codable, Sendable, Hashable {
        var payload: Payload?
        var message: MessageFields?
    }

    /// The fields of a simple alert, built into a payload by HeraldCore.
    struct MessageFields: Codable, Sendable, Hashable {
        var title: String?
        var subtitle: String?
        var body: String
        var badge: Int?
        var sound: String?
        var category: String?
        var threadId: String?
        var mutableContent: Bool?
        /// Custom keys beside `aps` (an object).
        var data: JSONValue?
    }

    var to: Target
    var payload: Payload?
    /// The payload as JSON text, sent as written (key order, repeated keys and numbers kept),
    /// instead of `payload`.
    var payloadText: String?
    var message: MessageFields?
    /// Per language tag (`zh-Hans`, `en`…): the content for devices in that locale.
    var locales: [String: Content]?
    var pushType: String?
    var priority: Int?
    /// UNIX seconds after which the notification is not sent (0: now or never).
    var expiration: Int64?
    var collapseId: String?
    var idempotencyKey: String?
    /// The alert to send end to end: sealed for each device with the key it registered, opened
    /// by the app's service extension (HeraldKit). `message`/`payload` is then the text shown
    /// when it cannot be opened, and all a device without a key gets.
    var seal: SealedAlert?

    static let maximumTargets = 10_000
    /// The latest `expiration` taken: 9999-12-31T23:59:59Z.
    static let latestExpiration: Int64 = 253_402_300_799

    /// The audience, checked.
    func audience(kind: DeviceKind) throws(APIError) -> Audience {
        let chosen = [to.tokens != nil, to.users != nil, to.tags != nil, to.all == true].filter { $0 }.count
        guard chosen == 1 else {
            throw .badRequest("'to' needs exactly one of tokens, users, tags (with match any or all) or all: true")
        }
        if let tokens = to.tokens {
            guard !tokens.isEmpty, tokens.count <= Self.maximumTargets else { throw .badRequest("to.tokens must have 1 to \(Self.maximumTargets) tokens") }
            return Audience(.tokens(try tokens.map { token throws(APIError) in try DeviceInput.token(token) }), kind: kind)
        }
        if let users = to.users {
            guard !users.isEmpty, users.count <= Self.maximumTargets else { throw .badRequest("to.users must have 1 to \(Self.maximumTargets) user ids") }
            return Audience(.users(users), kind: kind)
        }
        if let tags = to.tags {
            guard !tags.isEmpty, tags.count <= DeviceInput.maximumTags else { throw .badRequest("to.tags must have 1 to \(DeviceInput.maximumTags) tags") }
            guard let match = Audience.TagMatch(rawValue: to.match ?? "any") else { throw .badRequest("to.match must be any or all") }
            return Audience(.tags(tags, match: match), kind: kind)
        }
        return Audience(.everyone, kind: kind)
    }

    /// Push types the App Server refuses, with why (the payload may have called for one).
    static let unsupportedPushTypes: [PushType: String] = [
        .mdm: "an mdm push goes to a device's MDM enrolment with the MDM push certificate, not to a registered app token; send it with herald send --cert",
        .fileProvider: "a fileprovider push goes to a File Provider extension's PushKit token, which apps do not register here",
    ]

    /// The message to store: every variant built, linted and serialized once. A payload with
    /// lint errors is refused (422) unless `refusing` is false (a dry run), which returns them.
    func outgoing(app: StoredApp, linter: PayloadLinter, refusing: Bool = true) throws(APIError) -> (OutgoingMessage, [DiagnosticView]) {
        var written = payload
        if let payloadText {
            guard payload == nil, message == nil else { throw .badRequest("give one of payloadText, payload or message") }
            do {
                written = try Payload(decoding: Array(payloadText.utf8))
            } catch {
                throw .badRequest("payloadText is not an APNs payload: \(error)")
            }
        }
        let fallback = try Self.payload(Content(payload: written, message: message), field: "")
        let pushType = pushType.map(PushType.init(rawValue:)) ?? PushType.inferred(from: fallback)
        guard pushType.isKnown else {
            throw .badRequest("pushType '\(pushType)' is not one of \(PushType.known.map(\.rawValue).joined(separator: ", "))")
        }
        // MDM pushes go to a device's MDM enrolment (the MDM push certificate's topic) and File
        // Provider pushes to a File Provider token: neither is a token apps register here.
        guard Self.unsupportedPushTypes[pushType] == nil else {
            throw .badRequest("pushType \(pushType) is not sent by the App Server: \(Self.unsupportedPushTypes[pushType]!)")
        }
        // As herald send does: the type's own priority when none is given (5 for background,
        // which APNs would otherwise send at 10).
        let priority = priority.map(Priority.init(rawValue:)) ?? pushType.recommendedPriority
        if !priority.isKnown { throw .badRequest("priority must be 10, 5 or 1") }
        var collapseID: CollapseID?
        if let collapseId {
            do { collapseID = try CollapseID(collapseId) } catch { throw .badRequest("collapseId: \(error)") }
        }
        if let expiration, !(0...Self.latestExpiration).contains(expiration) {
            throw .badRequest("expiration must be UNIX seconds from 0 (deliver now or never) to \(Self.latestExpiration) (the end of 9999); got \(expiration)")
        }
        let headers = NotificationHeaders(
            pushType: pushType, topic: app.bundleID + (pushType.topicSuffix ?? ""), priority: priority,
            expiration: expiration.map { $0 == 0 ? .immediately : .at(Date(timeIntervalSince1970: TimeInterval($0))) } ?? Expiration.none,
            collapseID: collapseID
        )
        var variants: [String: String] = [:]
        var diagnostics: [DiagnosticView] = []
        func check(_ payload: Payload, field: String) throws(APIError) {
            let found = linter.lint(payload: payload.serialized, headers: headers.fields())
            let views = found.map { DiagnosticView($0, variant: field.isEmpty ? nil : field) }
            if found.hasErrors && refusing {
                var error = APIError(.unprocessableContent, code: "payload_rejected", "the payload\(field.isEmpty ? "" : " for \(field)") would be refused by APNs")
                error.diagnostics = views
                throw error
            }
            diagnostics += views
        }
        if let seal {
            guard pushType == .alert else { throw .badRequest("seal is for alert notifications; this one's pushType is \(pushType)") }
            guard [seal.title, seal.subtitle, seal.body].contains(where: { !($0 ?? "").isEmpty }) else {
                throw .badRequest("seal needs a title, subtitle or body")
            }
        }
        /// With a seal, each payload gets mutable-content (so the extension runs) and is checked
        /// with a sealed alert of the real size in it.
        func prepared(_ payload: Payload) throws(APIError) -> Payload {
            guard let seal else { return payload }
            var payload = payload.mutableContent()
            do {
                payload.json[SealedAlert.payloadKey] = .string(try seal.seal(to: Curve25519.KeyAgreement.PrivateKey().publicKey))
            } catch {
                throw .badRequest("seal: \(error)")
            }
            return payload
        }
        let sealedFallback = try prepared(fallback)
        try check(sealedFallback, field: "")
        for (tag, content) in (locales ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard LocaleMatcher.isLanguageTag(tag) else { throw .badRequest("locales has '\(tag)', which is not a language tag such as en or zh-Hans") }
            let variant = try Self.payload(content, field: "locales.\(tag)")
            try check(try prepared(variant), field: "locales.\(tag)")
            variants[LocaleMatcher.canonical(tag)] = (seal == nil ? variant : variant.mutableContent()).jsonString
        }
        let kind = DeviceKind(pushType: pushType, payload: fallback)
        let stored = seal == nil ? fallback : fallback.mutableContent()
        return (OutgoingMessage(fallback: stored.jsonString, variants: variants, headers: headers, kind: kind, seal: seal), diagnostics)
    }

    static func payload(_ content: Content, field: String) throws(APIError) -> Payload {
        let prefix = field.isEmpty ? "" : field + "."
        switch (content.payload, content.message) {
        case (let payload?, nil):
            return payload
        case (nil, let fields?):
            var payload = Payload.alert(title: fields.title, subtitle: fields.subtitle, body: fields.body)
            if let badge = fields.badge { payload = payload.badge(badge) }
            if let sound = fields.sound { payload = payload.sound(.named(sound)) }
            if let category = fields.category { payload = payload.category(category) }
            if let threadId = fields.threadId { payload = payload.threadID(threadId) }
            if fields.mutableContent == true { payload = payload.mutableContent() }
            switch fields.data {
            case nil: break
            case .object(let object)?:
                for entry in object.entries where entry.key != "aps" { payload.json[entry.key] = entry.value }
            case _?:
                throw .badRequest("\(prefix)message.data must be an object of custom keys")
            }
            return payload
        default:
            throw .badRequest("give exactly one of \(prefix)payload (APNs JSON) or \(prefix)message (title, body…)")
        }
    }
}

extension DeviceKind {
    /// The kind of token a push type is sent to: VoIP pushes to VoIP tokens, Live Activity starts
    /// to push-to-start tokens, other Live Activity pushes to activity tokens, the rest to the
    /// app's token.
    init(pushType: PushType, payload: Payload) {
        switch pushType {
        case .voip: self = .voip
        case .liveActivity: self = payload.aps.event == .start ? .pushToStart : .liveActivity
        default: self = .alert
        }
    }
}

/// A lint finding in an answer.
public struct DiagnosticView: Encodable, Sendable, Hashable {
    var code: String
    var severity: String
    var message: String
    var path: String?
    var header: String?
    var fix: String?
    var variant: String?
    /// 1-based, for JSON syntax errors.
    var line: Int?
    var column: Int?

    init(_ diagnostic: Diagnostic, variant: String?) {
        code = diagnostic.code.rawValue
        severity = "\(diagnostic.severity)"
        message = diagnostic.message
        path = diagnostic.path
        header = diagnostic.header
        fix = diagnostic.fix
        line = diagnostic.line
        column = diagnostic.column
        self.variant = variant
    }
}

extension SendRequest: KnownFields {
    static var fields: [String: FieldShape] { [
        "to": .object(Target.self), "payload": .value, "payloadText": .value, "message": .object(MessageFields.self), "locales": .objects(Content.self),
        "pushType": .value, "priority": .value, "expiration": .value, "collapseId": .value, "idempotencyKey": .value, "seal": .value,
    ] }
}

extension SendRequest.Target: KnownFields {
    static var fields: [String: FieldShape] { ["tokens": .value, "users": .value, "tags": .value, "match": .value, "all": .value] }
}

extension SendRequest.Content: KnownFields {
    static var fields: [String: FieldShape] { ["payload": .value, "message": .object(SendRequest.MessageFields.self)] }
}

extension SendRequest.MessageFields: KnownFields {
    static var fields: [String: FieldShape] { [
        "title": .value, "subtitle": .value, "body": .value, "badge": .value, "sound": .value, "category": .value, "threadId": .value,
        "mutableContent": .value, "data": .value,
    ] }
}
