import Foundation
import Testing
@testable import HeraldCore

/// One input for the linter.
struct LintInput: Sendable {
    var payload: String
    var headers: [Header]?
    var auth: AuthenticationMethod?

    struct Header: Sendable {
        let name: String
        let value: String
    }

    init(_ payload: String, _ headers: [(String, String)]? = nil, auth: AuthenticationMethod? = nil) {
        self.payload = payload
        self.headers = headers?.map { Header(name: $0.0, value: $0.1) }
        self.auth = auth
    }

    func lint() -> [Diagnostic] {
        PayloadLinter(options: LintOptions(authentication: auth, now: Date(timeIntervalSince1970: 1_700_000_000)))
            .lint(payload: Array(payload.utf8), headers: headers?.map { (name: $0.name, value: $0.value) })
    }
}

/// A rule, an input that triggers it and a near miss that does not.
struct RuleCase: Sendable, CustomStringConvertible {
    let code: DiagnosticCode
    let triggers: LintInput
    let clean: LintInput
    var description: String { code.rawValue }
}

let alert = #"{"aps":{"alert":"x"}}"#
let background = #"{"aps":{"content-available":1}}"#
let laHeaders = [("apns-push-type", "liveactivity"), ("apns-topic", "com.x.push-type.liveactivity"), ("apns-priority", "10")]
let bgHeaders = [("apns-push-type", "background"), ("apns-priority", "5")]
let longBody = String(repeating: "a", count: 4100)
let nearBody = String(repeating: "a", count: 3800)

let ruleCases: [RuleCase] = [
    RuleCase(code: .payloadEmpty, triggers: LintInput(""), clean: LintInput(alert)),
    RuleCase(code: .payloadTooLarge,
             triggers: LintInput(#"{"aps":{"alert":"\#(longBody)"}}"#, [("apns-push-type", "alert")]),
             clean: LintInput(#"{"aps":{"alert":"\#(longBody)"}}"#, [("apns-push-type", "voip"), ("apns-topic", "com.x.voip")])),
    RuleCase(code: .invalidJSON, triggers: LintInput(#"{"aps":}"#), clean: LintInput(alert)),
    RuleCase(code: .payloadNotObject, triggers: LintInput("[1]"), clean: LintInput(alert)),
    RuleCase(code: .apsMissing, triggers: LintInput(#"{"msg":"x"}"#), clean: LintInput(#"{"aps":{"alert":"x"},"msg":"x"}"#)),
    RuleCase(code: .apsNotObject, triggers: LintInput(#"{"aps":"hello"}"#), clean: LintInput(alert)),
    RuleCase(code: .duplicateHeader,
             triggers: LintInput(alert, [("apns-push-type", "alert"), ("APNS-PUSH-TYPE", "alert")]),
             clean: LintInput(alert, [("apns-push-type", "alert")])),
    RuleCase(code: .pushTypeInvalid, triggers: LintInput(alert, [("apns-push-type", "alerts")]), clean: LintInput(alert, [("apns-push-type", "alert")])),
    RuleCase(code: .priorityInvalid,
             triggers: LintInput(alert, [("apns-push-type", "alert"), ("apns-priority", "7")]),
             clean: LintInput(alert, [("apns-push-type", "alert"), ("apns-priority", "5")])),
    RuleCase(code: .backgroundPriority,
             triggers: LintInput(background, [("apns-push-type", "background"), ("apns-priority", "10")]),
             clean: LintInput(background, [("apns-push-type", "background")])),
    RuleCase(code: .mdmPushMagicMissing,
             triggers: LintInput(#"{"mdm":""}"#, [("apns-push-type", "mdm"), ("apns-topic", "com.apple.mgmt.External.1a2b")]),
             clean: LintInput(#"{"mdm":"7F2D5A5C-PushMagic"}"#, [("apns-push-type", "mdm"), ("apns-topic", "com.apple.mgmt.External.1a2b")])),
    RuleCase(code: .mdmExtraKeys,
             triggers: LintInput(#"{"mdm":"magic","aps":{"alert":"x"}}"#, [("apns-push-type", "mdm")]),
             clean: LintInput(#"{"mdm":"magic"}"#, [("apns-push-type", "mdm")])),
    RuleCase(code: .mdmNeedsCertificate,
             triggers: LintInput(#"{"mdm":"magic"}"#, [("apns-push-type", "mdm"), ("apns-topic", "com.apple.mgmt.External.1a2b")], auth: .token),
             clean: LintInput(#"{"mdm":"magic"}"#, [("apns-push-type", "mdm"), ("apns-topic", "com.apple.mgmt.External.1a2b")], auth: .certificate)),
    RuleCase(code: .fileProviderContainerMissing,
             triggers: LintInput(#"{"domain":"d"}"#, [("apns-push-type", "fileprovider"), ("apns-topic", "com.x.pushkit.fileprovider")]),
             clean: LintInput(#"{"container-identifier":"NSFileProviderWorkingSetContainerItemIdentifier","domain":"d"}"#,
                              [("apns-push-type", "fileprovider"), ("apns-topic", "com.x.pushkit.fileprovider")])),
    RuleCase(code: .backgroundPriorityDefault,
             triggers: LintInput(background, [("apns-push-type", "background")]),
             clean: LintInput(background, bgHeaders)),
    RuleCase(code: .topicMissing,
             triggers: LintInput(alert, [("apns-push-type", "alert")], auth: .token),
             clean: LintInput(alert, [("apns-push-type", "alert"), ("apns-topic", "com.x")], auth: .token)),
    RuleCase(code: .topicInvalid,
             triggers: LintInput(alert, [("apns-push-type", "alert"), ("apns-topic", "com example")]),
             clean: LintInput(alert, [("apns-push-type", "alert"), ("apns-topic", "com.example")])),
    RuleCase(code: .topicSuffix,
             triggers: LintInput(alert, [("apns-push-type", "voip"), ("apns-topic", "com.x")]),
             clean: LintInput(alert, [("apns-push-type", "voip"), ("apns-topic", "com.x.voip")])),
    RuleCase(code: .collapseIDInvalid,
             triggers: LintInput(alert, [("apns-push-type", "alert"), ("apns-collapse-id", String(repeating: "é", count: 33))]),
             clean: LintInput(alert, [("apns-push-type", "alert"), ("apns-collapse-id", String(repeating: "é", count: 32))])),
    RuleCase(code: .expirationInvalid,
             triggers: LintInput(alert, [("apns-push-type", "alert"), ("apns-expiration", "tomorrow")]),
             clean: LintInput(alert, [("apns-push-type", "alert"), ("apns-expiration", "0")])),
    RuleCase(code: .apnsIDInvalid,
             triggers: LintInput(alert, [("apns-push-type", "alert"), ("apns-id", "123")]),
             clean: LintInput(alert, [("apns-push-type", "alert"), ("apns-id", "123e4567-e89b-12d3-a456-426614174000")])),
    RuleCase(code: .pushTypeNeedsTokenAuth,
             triggers: LintInput(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":{}}}"#, laHeaders, auth: .certificate),
             clean: LintInput(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":{}}}"#, laHeaders, auth: .token)),
    RuleCase(code: .pushTypeMissing, triggers: LintInput(alert, [("apns-topic", "com.x")]), clean: LintInput(alert, [("apns-topic", "com.x"), ("apns-push-type", "alert")])),
    RuleCase(code: .headerUnknown,
             triggers: LintInput(alert, [("apns-push-type", "alert"), ("apns-pushtype", "alert")]),
             clean: LintInput(alert, [("apns-push-type", "alert"), ("x-request-id", "1")])),
    RuleCase(code: .expirationPast,
             triggers: LintInput(alert, [("apns-push-type", "alert"), ("apns-expiration", "1600000000")]),
             clean: LintInput(alert, [("apns-push-type", "alert"), ("apns-expiration", "1800000000")])),
    RuleCase(code: .duplicateKey, triggers: LintInput(#"{"aps":{"alert":"x","alert":"y"}}"#), clean: LintInput(#"{"aps":{"alert":"y"}}"#)),
    RuleCase(code: .apsUnknownKey, triggers: LintInput(#"{"aps":{"alert":"x","msgid":"1"}}"#), clean: LintInput(#"{"aps":{"alert":"x"},"msgid":"1"}"#)),
    RuleCase(code: .alertUnknownKey, triggers: LintInput(#"{"aps":{"alert":{"titel":"x","body":"y"}}}"#), clean: LintInput(#"{"aps":{"alert":{"title":"x","body":"y"}}}"#)),
    RuleCase(code: .wrongType, triggers: LintInput(#"{"aps":{"alert":"x","category":5}}"#), clean: LintInput(#"{"aps":{"alert":"x","category":"5"}}"#)),
    RuleCase(code: .flagNotNumber, triggers: LintInput(#"{"aps":{"alert":"x","mutable-content":true}}"#), clean: LintInput(#"{"aps":{"alert":"x","mutable-content":1}}"#)),
    RuleCase(code: .flagZero, triggers: LintInput(#"{"aps":{"alert":"x","mutable-content":0}}"#), clean: LintInput(alert)),
    RuleCase(code: .mutableContentWithoutAlert,
             triggers: LintInput(#"{"aps":{"mutable-content":1,"sound":"default"}}"#),
             clean: LintInput(#"{"aps":{"mutable-content":1,"alert":{"title":"t"}}}"#)),
    RuleCase(code: .alertEmpty, triggers: LintInput(#"{"aps":{"alert":{"launch-image":"a.png"}}}"#), clean: LintInput(#"{"aps":{"alert":{"loc-key":"K"}}}"#)),
    RuleCase(code: .notificationEmpty, triggers: LintInput(#"{"aps":{"category":"X"}}"#), clean: LintInput(#"{"aps":{"category":"X","badge":2}}"#)),
    RuleCase(code: .backgroundWithAlert,
             triggers: LintInput(#"{"aps":{"content-available":1,"badge":1}}"#, bgHeaders),
             clean: LintInput(background, bgHeaders)),
    RuleCase(code: .backgroundWithoutContentAvailable,
             triggers: LintInput(#"{"aps":{},"data":1}"#, bgHeaders),
             clean: LintInput(#"{"aps":{"content-available":1},"data":1}"#, bgHeaders)),
    RuleCase(code: .silentAlertPush,
             triggers: LintInput(background, [("apns-push-type", "alert"), ("apns-priority", "5")]),
             clean: LintInput(background, bgHeaders)),
    RuleCase(code: .pushTypeMismatch,
             triggers: LintInput(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":{},"alert":"x"}}"#, [("apns-push-type", "alert")]),
             clean: LintInput(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":{},"alert":"x"}}"#, laHeaders)),
    RuleCase(code: .badgeInvalid, triggers: LintInput(#"{"aps":{"badge":-1}}"#), clean: LintInput(#"{"aps":{"badge":0}}"#)),
    RuleCase(code: .locArgsInvalid,
             triggers: LintInput(#"{"aps":{"alert":{"loc-key":"K","loc-args":[1]}}}"#),
             clean: LintInput(#"{"aps":{"alert":{"loc-key":"K","loc-args":["1"]}}}"#)),
    RuleCase(code: .locArgsWithoutKey,
             triggers: LintInput(#"{"aps":{"alert":{"body":"b","loc-args":["1"]}}}"#),
             clean: LintInput(#"{"aps":{"alert":{"loc-key":"K","loc-args":["1"]}}}"#)),
    RuleCase(code: .categoryEmpty, triggers: LintInput(#"{"aps":{"alert":"x","category":""}}"#), clean: LintInput(#"{"aps":{"alert":"x","category":"X"}}"#)),
    RuleCase(code: .threadIDEmpty, triggers: LintInput(#"{"aps":{"alert":"x","thread-id":""}}"#), clean: LintInput(#"{"aps":{"alert":"x","thread-id":"t"}}"#)),
    RuleCase(code: .soundWithoutExtension, triggers: LintInput(#"{"aps":{"alert":"x","sound":"ping"}}"#), clean: LintInput(#"{"aps":{"alert":"x","sound":"ping.caf"}}"#)),
    RuleCase(code: .criticalWithoutSoundDictionary,
             triggers: LintInput(#"{"aps":{"alert":"x","interruption-level":"critical","sound":"default"}}"#),
             clean: LintInput(#"{"aps":{"alert":"x","interruption-level":"critical","sound":{"critical":1,"name":"default","volume":1}}}"#)),
    RuleCase(code: .criticalSoundInvalid,
             triggers: LintInput(#"{"aps":{"alert":"x","sound":{"critical":1,"name":"a.caf","volume":2}}}"#),
             clean: LintInput(#"{"aps":{"alert":"x","sound":{"critical":1,"name":"a.caf","volume":1}}}"#)),
    RuleCase(code: .interruptionLevelInvalid,
             triggers: LintInput(#"{"aps":{"alert":"x","interruption-level":"urgent"}}"#),
             clean: LintInput(#"{"aps":{"alert":"x","interruption-level":"passive"}}"#)),
    RuleCase(code: .relevanceScoreRange,
             triggers: LintInput(#"{"aps":{"alert":"x","relevance-score":1.5}}"#),
             clean: LintInput(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":{},"relevance-score":150}}"#, laHeaders)),
    RuleCase(code: .liveActivityMissingTimestamp,
             triggers: LintInput(#"{"aps":{"event":"update","content-state":{}}}"#, laHeaders),
             clean: LintInput(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":{}}}"#, laHeaders)),
    RuleCase(code: .liveActivityMissingEvent,
             triggers: LintInput(#"{"aps":{"timestamp":1700000000,"content-state":{}}}"#, laHeaders),
             clean: LintInput(#"{"aps":{"timestamp":1700000000,"event":"end","content-state":{}}}"#, laHeaders)),
    RuleCase(code: .liveActivityEventInvalid,
             triggers: LintInput(#"{"aps":{"timestamp":1700000000,"event":"stop","content-state":{}}}"#, laHeaders),
             clean: LintInput(#"{"aps":{"timestamp":1700000000,"event":"end","content-state":{}}}"#, laHeaders)),
    RuleCase(code: .liveActivityStartIncomplete,
             triggers: LintInput(#"{"aps":{"timestamp":1700000000,"event":"start","content-state":{}}}"#, laHeaders),
             clean: LintInput(#"{"aps":{"timestamp":1700000000,"event":"start","content-state":{},"attributes-type":"A","attributes":{},"alert":{"title":"t","body":"b"}}}"#, laHeaders)),
    RuleCase(code: .liveActivityMissingContentState,
             triggers: LintInput(#"{"aps":{"timestamp":1700000000,"event":"update"}}"#, laHeaders),
             clean: LintInput(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"s":1}}}"#, laHeaders)),
    RuleCase(code: .liveActivityTimestampUnit,
             triggers: LintInput(#"{"aps":{"timestamp":1700000000000,"event":"update","content-state":{}}}"#, laHeaders),
             clean: LintInput(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":{}}}"#, laHeaders)),
    RuleCase(code: .contentChangedPushType,
             triggers: LintInput(#"{"aps":{"alert":"x","content-changed":true}}"#),
             clean: LintInput(#"{"aps":{"content-changed":true}}"#, [("apns-push-type", "widgets"), ("apns-topic", "com.x.push-type.widgets")])),
    RuleCase(code: .mediaURLWithoutType,
             triggers: LintInput(#"{"aps":{"alert":{"title":"a"},"mutable-content":1},"image_url":"https://x.com/a.png"}"#),
             clean: LintInput(#"{"aps":{"alert":{"title":"a"},"mutable-content":1},"image_url":"https://x.com/a","image_type":"png"}"#)),
    RuleCase(code: .mediaURLInsecure,
             triggers: LintInput(#"{"aps":{"alert":{"title":"a"},"mutable-content":1},"media":{"url":"http://x.com/a.png","type":"image"}}"#),
             clean: LintInput(#"{"aps":{"alert":{"title":"a"},"mutable-content":1},"media":{"url":"https://x.com/a.png","type":"image"}}"#)),
    RuleCase(code: .mediaURLInvalid,
             triggers: LintInput(#"{"aps":{"alert":{"title":"a"},"mutable-content":1},"media":{"url":"https://x.com/a b.png","type":"image"}}"#),
             clean: LintInput(#"{"aps":{"alert":{"title":"a"},"mutable-content":1},"media":{"url":"https://x.com/a%20b.png","type":"image"}}"#)),
    RuleCase(code: .mediaTypeUnknown,
             triggers: LintInput(#"{"aps":{"alert":{"title":"a"},"mutable-content":1},"media":{"url":"https://x.com/a","type":"chat"}}"#),
             clean: LintInput(#"{"aps":{"alert":{"title":"a"},"mutable-content":1},"media":{"url":"https://x.com/a","type":"image/png"}}"#)),
    RuleCase(code: .expirationUnit,
             triggers: LintInput(alert, [("apns-push-type", "alert"), ("apns-expiration", "1800000000000")]),
             clean: LintInput(alert, [("apns-push-type", "alert"), ("apns-expiration", "1800000000")])),
    RuleCase(code: .payloadWrapped, triggers: LintInput(#"{"payload":{"aps":{"alert":"x"}}}"#), clean: LintInput(#"{"aps":{"alert":"x"},"payload":{"k":1}}"#)),
    RuleCase(code: .entitlementRequired,
             triggers: LintInput(#"{"aps":{"alert":"x","interruption-level":"time-sensitive"}}"#),
             clean: LintInput(#"{"aps":{"alert":"x","interruption-level":"active"}}"#)),
    RuleCase(code: .payloadNearLimit, triggers: LintInput(#"{"aps":{"alert":"\#(nearBody)"}}"#), clean: LintInput(alert)),
    RuleCase(code: .pushTypeInferred, triggers: LintInput(alert, [("apns-topic", "com.x")]), clean: LintInput(alert, [("apns-push-type", "alert")])),
    RuleCase(code: .passiveWithSound,
             triggers: LintInput(#"{"aps":{"alert":"x","interruption-level":"passive","sound":"default"}}"#),
             clean: LintInput(#"{"aps":{"alert":"x","interruption-level":"passive"}}"#)),
    RuleCase(code: .categoryWhitespace,
             triggers: LintInput(#"{"aps":{"alert":"x","category":"MESSAGE "}}"#),
             clean: LintInput(#"{"aps":{"alert":"x","category":"MESSAGE"}}"#)),
    RuleCase(code: .alertTextOverridden,
             triggers: LintInput(#"{"aps":{"alert":{"title":"t","title-loc-key":"T"}}}"#),
             clean: LintInput(#"{"aps":{"alert":{"title":"t","loc-key":"B"}}}"#)),
]

@Suite struct LintRuleTests {
    @Test(arguments: ruleCases)
    func ruleTriggers(_ rule: RuleCase) throws {
        let diagnostics = rule.triggers.lint()
        let found = try #require(diagnostics.first { $0.code == rule.code }, "\(rule.code) not reported; got \(diagnostics.map(\.code.rawValue))")
        let catalogued = try #require(DiagnosticCode.catalog.first { $0.code == rule.code })
        #expect(found.severity == catalogued.severity)
        #expect(!found.message.isEmpty)
        if found.severity == .error {
            #expect(found.fix != nil, "every error says how to fix it")
        }
    }

    @Test(arguments: ruleCases)
    func nearMissIsClean(_ rule: RuleCase) {
        let diagnostics = rule.clean.lint()
        #expect(!diagnostics.contains { $0.code == rule.code }, "\(rule.code) reported on its near miss: \(diagnostics.map(\.description))")
    }

    @Test func everyCatalogedRuleHasACase() {
        let tested = Set(ruleCases.map(\.code))
        let catalogued = DiagnosticCode.catalog.map(\.code)
        #expect(Set(catalogued) == tested)
        #expect(catalogued.count == Set(catalogued).count, "codes are unique")
    }

    @Test func errorsCarryTheAPNsReason() {
        let expected: [DiagnosticCode: APNsReason] = [
            .payloadEmpty: .payloadEmpty, .payloadTooLarge: .payloadTooLarge, .duplicateHeader: .duplicateHeaders,
            .pushTypeInvalid: .invalidPushType, .priorityInvalid: .badPriority, .backgroundPriority: .badPriority,
            .topicMissing: .missingTopic, .topicInvalid: .badTopic, .topicSuffix: .deviceTokenNotForTopic,
            .collapseIDInvalid: .badCollapseID, .expirationInvalid: .badExpirationDate, .apnsIDInvalid: .badMessageID,
            .invalidJSON: .badPayload, .payloadNotObject: .badPayload, .apsMissing: .badPayload, .apsNotObject: .badPayload,
            .payloadWrapped: .badPayload, .pushTypeNeedsTokenAuth: .topicDisallowed, .mdmPushMagicMissing: .badPayload,
        ]
        for (code, severity, _) in DiagnosticCode.catalog where severity == .error {
            #expect(expected[code] != nil, "every error names what APNs answers: \(code)")
        }
        for rule in ruleCases where expected[rule.code] != nil {
            let diagnostic = rule.triggers.lint().first { $0.code == rule.code }
            #expect(diagnostic?.reason == expected[rule.code], "\(rule.code)")
        }
    }

    @Test func errorsComeFirstAndCleanPayloadsHaveNone() {
        let diagnostics = LintInput(#"{"aps":{"mutable-content":"1","badge":-1}}"#, [("apns-push-type", "background"), ("apns-priority", "10")]).lint()
        #expect(diagnostics.first?.severity == .error)
        #expect(diagnostics.map(\.severity) == diagnostics.map(\.severity).sorted(by: >))
        let clean = LintInput(
            #"{"aps":{"alert":{"title":"Order shipped","body":"Arrives Tuesday"},"badge":1,"sound":"default"},"order":"42"}"#,
            [("apns-push-type", "alert"), ("apns-topic", "com.example.shop"), ("apns-priority", "10")], auth: .token
        ).lint()
        #expect(clean.isEmpty, "\(clean)")
    }

    @Test func reviewedEdgeCases() {
        // Live Activity keys alone make the payload a Live Activity push, so its rules apply.
        #expect(LintInput(#"{"aps":{"event":"update","content-state":{"a":1}}}"#).lint().contains { $0.code == .liveActivityMissingTimestamp })
        // A suffixed topic on an alert push is as wrong as a bare one on a VoIP push, and the fix names the bundle id.
        let suffixed = LintInput(alert, [("apns-push-type", "alert"), ("apns-topic", "com.x.voip")]).lint().first { $0.code == .topicSuffix }
        #expect(suffixed?.fix == "send apns-topic: com.x")
        let crossed = LintInput(alert, [("apns-push-type", "liveactivity"), ("apns-topic", "com.x.voip")]).lint().first { $0.code == .topicSuffix }
        #expect(crossed?.fix == "send apns-topic: com.x.push-type.liveactivity")
        // Only the copy of a repeated key that counts is checked.
        let repeated = LintInput(#"{"aps":{"category":5,"category":"X","alert":"x"}}"#).lint().map(\.code)
        #expect(repeated == [.duplicateKey])
    }

    @Test func sizeLimitCountsBytesAndMentionsWhitespace() throws {
        let spaced = "{\"aps\": {\"alert\": \"\(String(repeating: "测", count: 1300))\"}" + String(repeating: " ", count: 200) + "}"
        let diagnostic = try #require(LintInput(spaced).lint().first { $0.code == .payloadTooLarge })
        #expect(diagnostic.message.contains("4096"))
        #expect(diagnostic.message.contains("without whitespace"))
    }

    @Test func eachPushTypeHasItsOwnPayloadRule() {
        // MDM and File Provider pushes carry no aps; neither do PushKit payloads need one.
        #expect(LintInput(#"{"mdm":"magic"}"#).lint().isEmpty, "inferred as mdm from its shape")
        #expect(LintInput(#"{"mdm":"magic"}"#, [("apns-push-type", "mdm"), ("apns-topic", "com.apple.mgmt.External.1a2b")]).lint().isEmpty)
        #expect(!LintInput(#"{"container-identifier":"c","domain":"d"}"#).lint().hasErrors)
        #expect(!LintInput(#"{"caller":"Alice"}"#, [("apns-push-type", "voip"), ("apns-topic", "com.x.voip"), ("apns-priority", "10")]).lint().hasErrors)
        #expect(!LintInput(#"{"complication":1}"#, [("apns-push-type", "complication"), ("apns-topic", "com.x.complication")]).lint().hasErrors)
        // An alert push still needs aps; an mdm push needs its PushMagic.
        #expect(LintInput(#"{"caller":"Alice"}"#, [("apns-push-type", "alert")]).lint().firstReason == .badPayload)
        #expect(LintInput(#"{"aps":{"alert":"x"}}"#, [("apns-push-type", "mdm")]).lint().map(\.code).contains(.mdmPushMagicMissing))
        #expect(PushType.inferred(from: try! Payload(decoding: #"{"mdm":"m"}"#)) == .mdm)
        #expect(PushType.inferred(from: try! Payload(decoding: #"{"container-identifier":"c"}"#)) == .fileProvider)
        #expect(PushType.inferred(from: try! Payload(decoding: #"{"mdm":"m","aps":{"alert":"x"}}"#)) == .alert)
        #expect(LintInput(#"{"mdm":123}"#).lint().map(\.code).contains(.mdmPushMagicMissing), "an mdm payload with a bad PushMagic is told so")
    }

    @Test func anOversizedBodyIsTooLargeBeforeItIsInvalid() {
        // APNs checks the size first: 5000 bytes of broken JSON are 413, not 400.
        let broken = "{\"aps\":{\"alert\":\"" + String(repeating: "x", count: 5000) + "\","
        #expect(LintInput(broken).lint().firstReason == .payloadTooLarge)
        let array = "[" + String(repeating: "1,", count: 2600) + "1]"
        #expect(LintInput(array).lint().firstReason == .payloadTooLarge)
        #expect(LintInput(#"{"aps":{"alert":"x",}}"#).lint().firstReason == .badPayload)
    }

    @Test func theAnswerSaysWhetherAppleDocumentsIt() {
        let documented = DiagnosticFormatter(source: "p").format(LintInput(alert, [("apns-push-type", "alert"), ("apns-priority", "7")]).lint())
        #expect(documented.contains("APNs answers: 400 BadPriority"), "\(documented)")
        let undocumented = DiagnosticFormatter(source: "p").format(LintInput(#"{"aps":{"alert":"x",}}"#).lint())
        #expect(undocumented.contains("Apple documents no answer for this, Herald's sandbox answers 400 BadPayload"), "\(undocumented)")
        #expect(!undocumented.contains("APNs answers: 400 BadPayload"))
    }

    @Test func formatterPrintsLikeACompiler() {
        let diagnostics = LintInput(#"{"aps":{"alert":"x",}}"#).lint()
        let text = DiagnosticFormatter(source: "p.json").format(diagnostics)
        #expect(text.hasPrefix("p.json:1:21: error: the payload is not valid JSON"))
        #expect(text.hasSuffix("1 error"))
        #expect(DiagnosticFormatter.summary([]) == "no problems")
        let warning = LintInput(#"{"aps":{"alert":"x","badge":"2"}}"#).lint()
        #expect(DiagnosticFormatter(source: "p").format(warning).contains("p: warning: aps.badge: "))
    }
}
