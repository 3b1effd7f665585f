import Foundation
import Testing
@testable import HeraldCore

@Suite struct APNsReasonTests {
    /// Apple's table of statuses and reasons (APNS-RULES.md), written out independently of the model.
    static let table: [Int: [String]] = [
        400: ["BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic",
              "DeviceTokenNotForTopic", "DuplicateHeaders", "IdleTimeout", "InvalidPushType", "MissingDeviceToken",
              "MissingTopic", "PayloadEmpty", "TopicDisallowed"],
        403: ["BadCertificate", "BadCertificateEnvironment", "ExpiredProviderToken", "Forbidden", "InvalidProviderToken",
              "MissingProviderToken", "UnrelatedKeyIdInToken", "BadEnvironmentKeyInToken"],
        404: ["BadPath"],
        405: ["MethodNotAllowed"],
        410: ["ExpiredToken", "Unregistered"],
        413: ["PayloadTooLarge"],
        429: ["TooManyProviderTokenUpdates", "TooManyRequests"],
        500: ["InternalServerError"],
        503: ["ServiceUnavailable", "Shutdown"],
    ]

    @Test func everyDocumentedReasonHasItsStatus() {
        var all: [String] = []
        for (status, reasons) in Self.table {
            for name in reasons {
                let reason = APNsReason(rawValue: name)
                #expect(reason.isKnown, "\(name)")
                #expect(reason.status == status, "\(name)")
                #expect(!reason.meaning.isEmpty)
                all.append(name)
            }
        }
        #expect(Set(APNsReason.known.map(\.rawValue)) == Set(all))
    }

    @Test func theEnvironmentKeyReasonIsReadInBothSpellings() {
        // Apple's table spells it BadEnvironmentKeyIdInToken; APNs answers BadEnvironmentKeyInToken
        // (APNSwift PR #229, from a real answer). Both read as one reason; the wire spelling is sent.
        let documented = APNsReason(rawValue: "BadEnvironmentKeyIdInToken")
        let wire = APNsReason(rawValue: "BadEnvironmentKeyInToken")
        for reason in [documented, wire] {
            #expect(reason.isKnown && reason.status == 403 && reason.retry == .never && reason.tokenAction == .keep, "\(reason)")
            #expect(reason.canonical == wire)
        }
        #expect(APNsReason.known.contains(wire) && !APNsReason.known.contains(documented))
        #expect(APNsErrorBody(bytes: Array(#"{"reason":"BadEnvironmentKeyIdInToken"}"#.utf8))?.reason.canonical == .badEnvironmentKeyInToken)
    }

    @Test func retryAndTokenAdviceFollowApple() {
        for reason in [APNsReason.badDeviceToken, .deviceTokenNotForTopic, .forbidden, .expiredToken, .unregistered, .payloadTooLarge] {
            #expect(reason.retry == .never, "\(reason)")
        }
        for reason in [APNsReason.tooManyRequests, .internalServerError, .serviceUnavailable, .tooManyProviderTokenUpdates] {
            #expect(reason.retry == .afterBackoff, "\(reason)")
        }
        #expect(APNsReason.expiredProviderToken.retry == .afterNewProviderToken)
        #expect(APNsReason.shutdown.retry == .onNewConnection)
        #expect(APNsReason.unregistered.tokenAction == .deactivate)
        #expect(APNsReason.expiredToken.tokenAction == .deactivate)
        #expect(APNsReason.badDeviceToken.tokenAction == .flag)
        #expect(APNsReason.deviceTokenNotForTopic.tokenAction == .flag)
        #expect(APNsReason.tooManyRequests.tokenAction == .keep)
    }

    @Test func unknownReasonsAreKept() throws {
        let body = try #require(APNsErrorBody(bytes: Array(#"{"reason":"BrandNewReason"}"#.utf8)))
        #expect(body.reason.rawValue == "BrandNewReason")
        #expect(!body.reason.isKnown)
        #expect(body.reason.status == nil)
        #expect(body.reason.retry == .never)
        #expect(body.reason.retry(status: 503) == .afterBackoff)
        #expect(body.reason.retry(status: 429) == .afterBackoff)
        #expect(body.reason.retry(status: 400) == .never)
        #expect(body.reason.tokenAction(status: 410) == .deactivate)
        #expect(APNsReason.badDeviceToken.retry(status: 503) == .never, "a known reason keeps its own advice")
        let encoded = try JSONEncoder().encode(body.reason)
        #expect(String(decoding: encoded, as: UTF8.self) == #""BrandNewReason""#)
    }

    @Test func errorBodyWithTimestamp() throws {
        let body = APNsErrorBody(reason: .unregistered, timestamp: 1_700_000_000_123)
        #expect(String(decoding: body.serialized, as: UTF8.self) == #"{"reason":"Unregistered","timestamp":1700000000123}"#)
        let parsed = try #require(APNsErrorBody(bytes: body.serialized))
        #expect(parsed == body)
        #expect(parsed.date == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(APNsErrorBody(bytes: Array("nonsense".utf8)) == nil)
        #expect(APNsErrorBody(bytes: Array(#"{"reason":5}"#.utf8)) == nil)
        // A hostile server's timestamp is dropped, never trapped on; the reason stays.
        for hostile in ["9223372036854775807", "-9223372036854775808", "1e300", "-1", "253402300800000", "1.5e18"] {
            let read = try #require(APNsErrorBody(bytes: Array(#"{"reason":"Unregistered","timestamp":\#(hostile)}"#.utf8)), "\(hostile)")
            #expect(read.reason == .unregistered && read.timestamp == nil && read.date == nil, "\(hostile)")
        }
        #expect(APNsErrorBody.milliseconds(Date(timeIntervalSince1970: 1_700_000_000.123)) == 1_700_000_000_123)
    }
}
