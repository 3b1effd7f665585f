import Foundation
import Testing
@testable import HeraldCore

@Suite struct RequestModelTests {
    @Test func pushTypesKnowTheirTopicsAndLimits() {
        let suffixes: [PushType: String?] = [
            .alert: nil, .background: nil, .voip: ".voip", .complication: ".complication",
            .fileProvider: ".pushkit.fileprovider", .location: ".location-query",
            .liveActivity: ".push-type.liveactivity", .pushToTalk: ".voip-ptt", .widgets: ".push-type.widgets",
            .controls: ".push-type.controls", .mdm: nil,
        ]
        #expect(Set(suffixes.keys) == Set(PushType.known))
        for (type, suffix) in suffixes { #expect(type.topicSuffix == suffix, "\(type)") }
        #expect(PushType.voip.topic(forBundleID: "com.x") == "com.x.voip")
        #expect(PushType.liveActivity.bundleID(fromTopic: "com.x.push-type.liveactivity") == "com.x")
        #expect(PushType.voip.maximumPayloadSize == 5120)
        #expect(PushType.alert.maximumPayloadSize == 4096)
        #expect(PushType.liveActivity.requiresTokenAuthentication && PushType.location.requiresTokenAuthentication)
        #expect(!PushType.alert.requiresTokenAuthentication)
        #expect(PushType.background.recommendedPriority == .powerConsiderate)
        #expect(!PushType(rawValue: "sms").isKnown)
    }

    @Test func prioritiesParseOnlyWhatAPNsAccepts() {
        #expect(Priority(headerValue: "10") == .immediate)
        #expect(Priority(headerValue: "5") == .powerConsiderate)
        #expect(Priority(headerValue: "1") == .low)
        #expect(Priority(headerValue: "7") == nil)
        #expect(Priority(headerValue: "ten") == nil)
    }

    @Test func expirationHeaderValues() {
        #expect(Expiration.none.headerValue == nil)
        #expect(Expiration.immediately.headerValue == "0")
        #expect(Expiration.at(Date(timeIntervalSince1970: 1_700_000_000.9)).headerValue == "1700000000")
        #expect(Expiration(headerValue: "0") == .immediately)
        #expect(Expiration(headerValue: "-1") == nil)
        #expect(Expiration(headerValue: "soon") == nil)
        #expect(Expiration.at(Date(timeIntervalSince1970: 10)).hasExpired(at: Date(timeIntervalSince1970: 11)))
        #expect(!Expiration.immediately.hasExpired(at: Date()))
    }

    @Test func collapseIDCountsBytes() throws {
        #expect(try CollapseID(String(repeating: "a", count: 64)).value.count == 64)
        #expect(throws: RequestFieldError.collapseIDTooLong(bytes: 66)) { try CollapseID(String(repeating: "测", count: 22)) }
        #expect(throws: RequestFieldError.emptyCollapseID) { try CollapseID("") }
    }

    @Test func notificationIDIsACanonicalUUIDSentAsSpelt() throws {
        // APNs echoes the apns-id it received, so the id goes out as the user spelt it.
        let upper = try NotificationID("123E4567-E89B-12D3-A456-426614174000")
        #expect(upper.headerValue == "123E4567-E89B-12D3-A456-426614174000")
        #expect(upper.canonical == "123e4567-e89b-12d3-a456-426614174000")
        let lower = try NotificationID("123e4567-e89b-12d3-a456-426614174000")
        #expect(upper == lower && Set([upper, lower]).count == 1)
        #expect(NotificationHeaders(id: upper).fields().last?.value == "123E4567-E89B-12D3-A456-426614174000")
        #expect(throws: RequestFieldError.self) { try NotificationID("123e4567e89b12d3a456426614174000") }
        #expect(NotificationID().headerValue.count == 36)
    }

    @Test func headersProduceTheHTTP2Fields() throws {
        let id = try NotificationID("123e4567-e89b-12d3-a456-426614174000")
        let headers = NotificationHeaders(
            pushType: .alert, topic: "com.x", priority: .powerConsiderate,
            expiration: .immediately, collapseID: try CollapseID("score"), id: id
        )
        let fields = headers.fields(authorization: "bearer abc")
        #expect(fields.map(\.name) == ["authorization", "apns-push-type", "apns-topic", "apns-priority", "apns-expiration", "apns-collapse-id", "apns-id"])
        #expect(fields.map(\.value) == ["bearer abc", "alert", "com.x", "5", "0", "score", "123e4567-e89b-12d3-a456-426614174000"])
        #expect(NotificationHeaders().fields().isEmpty)
        #expect(NotificationHeaders(pushType: .background).effectivePriority == .immediate, "APNs assumes 10 when absent")
    }

    @Test func notificationPathAndLint() throws {
        let notification = PushNotification(
            deviceToken: try DeviceToken(parsing: "abcd"),
            body: .payload(.background()),
            headers: NotificationHeaders(pushType: .background, topic: "com.x", priority: .powerConsiderate)
        )
        #expect(notification.path == "/3/device/abcd")
        #expect(PayloadLinter().lint(notification).isEmpty)
    }

    @Test func environments() {
        #expect(APNsEnvironment.production.host == "api.push.apple.com")
        #expect(APNsEnvironment.development.host == "api.sandbox.push.apple.com")
    }
}
