/// The stable code of a lint rule. Codes never change meaning; new rules get new codes.
public struct DiagnosticCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}

extension DiagnosticCode {
    // Errors: APNs rejects the request.
    public static let payloadEmpty = DiagnosticCode(rawValue: "payload-empty")
    public static let payloadTooLarge = DiagnosticCode(rawValue: "payload-too-large")
    public static let invalidJSON = DiagnosticCode(rawValue: "invalid-json")
    public static let payloadNotObject = DiagnosticCode(rawValue: "payload-not-object")
    public static let apsMissing = DiagnosticCode(rawValue: "aps-missing")
    public static let apsNotObject = DiagnosticCode(rawValue: "aps-not-object")
    public static let duplicateHeader = DiagnosticCode(rawValue: "duplicate-header")
    public static let pushTypeInvalid = DiagnosticCode(rawValue: "push-type-invalid")
    public static let priorityInvalid = DiagnosticCode(rawValue: "priority-invalid")
    public static let backgroundPriority = DiagnosticCode(rawValue: "background-priority")
    public static let topicMissing = DiagnosticCode(rawValue: "topic-missing")
    public static let topicInvalid = DiagnosticCode(rawValue: "topic-invalid")
    public static let topicSuffix = DiagnosticCode(rawValue: "topic-suffix")
    public static let collapseIDInvalid = DiagnosticCode(rawValue: "collapse-id-invalid")
    public static let expirationInvalid = DiagnosticCode(rawValue: "expiration-invalid")
    public static let apnsIDInvalid = DiagnosticCode(rawValue: "apns-id-invalid")
    public static let pushTypeNeedsTokenAuth = DiagnosticCode(rawValue: "push-type-needs-token-auth")
    public static let mdmPushMagicMissing = DiagnosticCode(rawValue: "mdm-push-magic-missing")

    // Warnings: APNs accepts, the device misbehaves.
    public static let pushTypeMissing = DiagnosticCode(rawValue: "push-type-missing")
    public static let backgroundPriorityDefault = DiagnosticCode(rawValue: "background-priority-default")
    public static let mdmExtraKeys = DiagnosticCode(rawValue: "mdm-extra-keys")
    public static let mdmNeedsCertificate = DiagnosticCode(rawValue: "mdm-needs-certificate")
    public static let fileProviderContainerMissing = DiagnosticCode(rawValue: "file-provider-container-missing")
    public static let headerUnknown = DiagnosticCode(rawValue: "header-unknown")
    public static let expirationPast = DiagnosticCode(rawValue: "expiration-past")
    public static let duplicateKey = DiagnosticCode(rawValue: "duplicate-key")
    public static let apsUnknownKey = DiagnosticCode(rawValue: "aps-unknown-key")
    public static let alertUnknownKey = DiagnosticCode(rawValue: "alert-unknown-key")
    public static let wrongType = DiagnosticCode(rawValue: "wrong-type")
    public static let flagNotNumber = DiagnosticCode(rawValue: "flag-not-number")
    public static let flagZero = DiagnosticCode(rawValue: "flag-zero")
    public static let mutableContentWithoutAlert = DiagnosticCode(rawValue: "mutable-content-without-alert")
    public static let alertEmpty = DiagnosticCode(rawValue: "alert-empty")
    public static let notificationEmpty = DiagnosticCode(rawValue: "notification-empty")
    public static let backgroundWithAlert = DiagnosticCode(rawValue: "background-with-alert")
    public static let backgroundWithoutContentAvailable = DiagnosticCode(rawValue: "background-without-content-available")
    public static let silentAlertPush = DiagnosticCode(rawValue: "silent-alert-push")
    public static let pushTypeMismatch = DiagnosticCode(rawValue: "push-type-mismatch")
    public static let badgeInvalid = DiagnosticCode(rawValue: "badge-invalid")
    public static let locArgsInvalid = DiagnosticCode(rawValue: "loc-args-invalid")
    public static let locArgsWithoutKey = DiagnosticCode(rawValue: "loc-args-without-key")
    public static let categoryEmpty = DiagnosticCode(rawValue: "category-empty")
    public static let threadIDEmpty = DiagnosticCode(rawValue: "thread-id-empty")
    public static let soundWithoutExtension = DiagnosticCode(rawValue: "sound-without-extension")
    public static let criticalWithoutSoundDictionary = DiagnosticCode(rawValue: "critical-without-sound-dictionary")
    public static let criticalSoundInvalid = DiagnosticCode(rawValue: "critical-sound-invalid")
    public static let interruptionLevelInvalid = DiagnosticCode(rawValue: "interruption-level-invalid")
    public static let relevanceScoreRange = DiagnosticCode(rawValue: "relevance-score-range")
    public static let liveActivityMissingTimestamp = DiagnosticCode(rawValue: "live-activity-missing-timestamp")
    public static let liveActivityMissingEvent = DiagnosticCode(rawValue: "live-activity-missing-event")
    public static let liveActivityEventInvalid = DiagnosticCode(rawValue: "live-activity-event-invalid")
    public static let liveActivityStartIncomplete = DiagnosticCode(rawValue: "live-activity-start-incomplete")
    public static let liveActivityMissingContentState = DiagnosticCode(rawValue: "live-activity-missing-content-state")
    public static let liveActivityTimestampUnit = DiagnosticCode(rawValue: "live-activity-timestamp-unit")
    public static let contentChangedPushType = DiagnosticCode(rawValue: "content-changed-push-type")
    public static let mediaURLWithoutType = DiagnosticCode(rawValue: "media-url-without-type")
    public static let mediaURLInsecure = DiagnosticCode(rawValue: "media-url-insecure")
    public static let mediaURLInvalid = DiagnosticCode(rawValue: "media-url-invalid")
    public static let mediaTypeUnknown = DiagnosticCode(rawValue: "media-type-unknown")
    public static let expirationUnit = DiagnosticCode(rawValue: "expiration-unit")
    public static let payloadWrapped = DiagnosticCode(rawValue: "payload-wrapped")

    // Information.
    public static let entitlementRequired = DiagnosticCode(rawValue: "entitlement-required")
    public static let payloadNearLimit = DiagnosticCode(rawValue: "payload-near-limit")
    public static let pushTypeInferred = DiagnosticCode(rawValue: "push-type-inferred")
    public static let alertTextOverridden = DiagnosticCode(rawValue: "alert-text-overridden")
    public static let passiveWithSound = DiagnosticCode(rawValue: "passive-with-sound")
    public static let categoryWhitespace = DiagnosticCode(rawValue: "category-whitespace")

    /// Every code with its severity and a one-line summary (`herald lint --rules` prints it).
    public static let catalog: [(code: DiagnosticCode, severity: Severity, summary: String)] = [
        (.payloadEmpty, .error, "the request has no body"),
        (.payloadTooLarge, .error, "payload larger than 4096 bytes (5120 for voip)"),
        (.invalidJSON, .error, "the payload is not valid JSON"),
        (.payloadNotObject, .error, "the payload's top level is not a JSON object"),
        (.apsMissing, .error, "no aps dictionary at the top level"),
        (.apsNotObject, .error, "aps is not a dictionary"),
        (.duplicateHeader, .error, "an APNs header is given more than once"),
        (.pushTypeInvalid, .error, "apns-push-type is not a type APNs knows"),
        (.priorityInvalid, .error, "apns-priority is not 10, 5 or 1"),
        (.backgroundPriority, .error, "background push sent with apns-priority: 10"),
        (.topicMissing, .error, "no apns-topic with token authentication"),
        (.topicInvalid, .error, "apns-topic is empty or contains spaces"),
        (.topicSuffix, .error, "apns-topic lacks the suffix the push type needs (.voip, .push-type.liveactivity…)"),
        (.collapseIDInvalid, .error, "apns-collapse-id is empty or longer than 64 bytes"),
        (.expirationInvalid, .error, "apns-expiration is not UNIX seconds"),
        (.apnsIDInvalid, .error, "apns-id is not a canonical UUID"),
        (.pushTypeNeedsTokenAuth, .error, "liveactivity or location push with certificate authentication"),
        (.mdmPushMagicMissing, .error, "mdm push without {\"mdm\": \"<PushMagic>\"}"),
        (.pushTypeMissing, .warning, "no apns-push-type header"),
        (.mdmExtraKeys, .warning, "mdm push with keys beside mdm (Apple: only the PushMagic)"),
        (.mdmNeedsCertificate, .warning, "mdm push with token authentication (Apple's MDM uses the MDM push certificate)"),
        (.fileProviderContainerMissing, .warning, "fileprovider push without container-identifier"),
        (.backgroundPriorityDefault, .warning, "background push without apns-priority (APNs accepts it and uses 10; send 5)"),
        (.headerUnknown, .warning, "an apns-… header APNs does not define (a typo?)"),
        (.expirationPast, .warning, "apns-expiration is already past"),
        (.duplicateKey, .warning, "a JSON object repeats a key; only the last one counts"),
        (.apsUnknownKey, .warning, "a key inside aps that Apple does not define; custom keys go beside aps"),
        (.alertUnknownKey, .warning, "a key inside aps.alert that Apple does not define"),
        (.wrongType, .warning, "an Apple key has the wrong JSON type and is ignored by the device"),
        (.flagNotNumber, .warning, "mutable-content / content-available given as a string or boolean instead of the number 1"),
        (.flagZero, .info, "a flag set to 0 has no effect"),
        (.mutableContentWithoutAlert, .warning, "mutable-content without an alert title, subtitle or body: the service extension will not run"),
        (.alertEmpty, .warning, "the alert has no title, subtitle or body"),
        (.notificationEmpty, .warning, "the notification neither shows anything nor wakes the app"),
        (.backgroundWithAlert, .warning, "background push with alert, sound or badge"),
        (.backgroundWithoutContentAvailable, .warning, "background push type without content-available: 1"),
        (.silentAlertPush, .warning, "content-available only, sent as push type alert"),
        (.pushTypeMismatch, .warning, "the payload is of another push type than apns-push-type says"),
        (.badgeInvalid, .warning, "badge is not a non-negative integer"),
        (.locArgsInvalid, .warning, "loc-args are not an array of strings"),
        (.locArgsWithoutKey, .warning, "loc-args without the matching loc-key"),
        (.categoryEmpty, .warning, "category is an empty string"),
        (.threadIDEmpty, .warning, "thread-id is an empty string"),
        (.soundWithoutExtension, .warning, "sound file name without a file extension"),
        (.criticalWithoutSoundDictionary, .warning, "interruption-level critical without the critical sound dictionary"),
        (.criticalSoundInvalid, .warning, "critical sound dictionary without critical: 1, or volume outside 0…1"),
        (.interruptionLevelInvalid, .warning, "interruption-level is not passive, active, time-sensitive or critical"),
        (.relevanceScoreRange, .warning, "relevance-score outside 0…1 (outside Live Activities)"),
        (.liveActivityMissingTimestamp, .warning, "Live Activity push without timestamp"),
        (.liveActivityMissingEvent, .warning, "Live Activity push without event"),
        (.liveActivityEventInvalid, .warning, "Live Activity event is not start, update or end"),
        (.liveActivityStartIncomplete, .warning, "start event without attributes-type, attributes, content-state or alert"),
        (.liveActivityMissingContentState, .warning, "update event without content-state"),
        (.liveActivityTimestampUnit, .warning, "Live Activity date in milliseconds instead of seconds"),
        (.contentChangedPushType, .warning, "content-changed outside a widgets or controls push"),
        (.mediaURLWithoutType, .warning, "media URL in a custom key with no file extension and no media type beside it"),
        (.mediaURLInsecure, .warning, "http:// media URL, blocked by App Transport Security"),
        (.mediaURLInvalid, .warning, "media URL that URL(string:) cannot parse (spaces, missing scheme…)"),
        (.mediaTypeUnknown, .warning, "the media type beside a media URL names no kind iOS attaches (image, audio, video, a file extension)"),
        (.expirationUnit, .warning, "apns-expiration looks like milliseconds; APNs wants seconds"),
        (.payloadWrapped, .error, "the payload is wrapped in another object (e.g. {\"payload\": {\"aps\": …}})"),
        (.entitlementRequired, .info, "the feature works only if the app has an entitlement"),
        (.payloadNearLimit, .info, "payload above 90% of its size limit"),
        (.pushTypeInferred, .info, "no push type given; lint assumed the one the payload calls for"),
        (.passiveWithSound, .info, "a passive notification plays no sound, so its sound is unused"),
        (.categoryWhitespace, .warning, "category has leading or trailing whitespace, so it matches no registered category"),
        (.alertTextOverridden, .info, "a text and its localization key are both given; the device shows the localized one"),
    ]
}
