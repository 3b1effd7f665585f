import Testing
@testable import HeraldCore

/// Every payload of the seed articles: it decodes, encodes again without loss, and lints to what a
/// careful iOS engineer expects (written down per seed below).
@Suite struct SeedFixtureTests {
    struct Expectation: Sendable, CustomStringConvertible {
        let file: String
        let decodes: Bool
        let codes: [DiagnosticCode]
        let why: String
        var description: String { file }
    }

    static let expectations: [Expectation] = [
        Expectation(
            file: "seed-000-localized.json", decodes: true,
            codes: [.alertTextOverridden, .alertTextOverridden],
            why: "title and body are given with title-loc-key and loc-key, so the localized strings win; otherwise a clean alert with sound, badge, mutable-content and category"
        ),
        Expectation(
            file: "seed-000-media.json", decodes: false, codes: [.invalidJSON],
            why: "the article's media example has a trailing comma after category, which is not JSON"
        ),
        Expectation(
            file: "seed-000-media-comma-removed.json", decodes: true, codes: [.mediaURLInvalid],
            why: "with the comma removed, the media URL still has a space ('photo effects'), so NSURL URLWithString gives nil"
        ),
        Expectation(
            file: "seed-000-category.json", decodes: true, codes: [],
            why: "string alert, badge, default sound and a category: nothing wrong"
        ),
        Expectation(
            file: "seed-002-image.json", decodes: true,
            codes: [.apsUnknownKey, .flagNotNumber, .mediaURLInsecure, .mediaURLWithoutType],
            why: "imageAbsoluteString sits inside aps, mutable-content is the string \"1\", the image URL is http:// and no media type is sent"
        ),
        Expectation(
            file: "seed-003-communication.json", decodes: true, codes: [.payloadWrapped],
            why: "the article shows the push tool's request, with aps wrapped in \"payload\""
        ),
        Expectation(
            file: "seed-003-communication-unwrapped.json", decodes: true, codes: [.flagNotNumber],
            why: "mutable-content is the string \"1\"; sender_image_url is an avatar loaded as data, so it needs no media type"
        ),
        Expectation(
            file: "seed-004-category.json", decodes: true, codes: [],
            why: "string alert, badge, default sound and the content extension's category: nothing wrong"
        ),
    ]

    @Test(arguments: expectations)
    func seedPayload(_ expectation: Expectation) throws {
        let bytes = try Examples.bytes(expectation.file)
        let decoded = Result { try Payload(decoding: bytes) }
        if expectation.decodes {
            let payload = try decoded.get()
            let reparsed = try JSONValue(parsing: bytes)
            #expect(JSONValue.object(payload.json) == reparsed, "decoding keeps every key and value")
            #expect(try Payload(decoding: payload.serialized) == payload, "encoding again loses nothing")
        } else {
            #expect(throws: PayloadDecodingError.self) { try decoded.get() }
        }
        let codes = PayloadLinter().lint(payload: bytes).map(\.code)
        #expect(codes.sorted { $0.rawValue < $1.rawValue } == expectation.codes.sorted { $0.rawValue < $1.rawValue }, "\(expectation.why)")
    }

    @Test func seed000MediaErrorPointsAtTheComma() throws {
        let diagnostic = try #require(PayloadLinter().lint(payload: try Examples.bytes("seed-000-media.json")).first)
        #expect(diagnostic.line == 1 && diagnostic.column == 170)
        #expect(diagnostic.message.contains("trailing comma"))
    }

    @Test func seed000LocalizedDecodesEveryKey() throws {
        let payload = try Payload(decoding: try Examples.bytes("seed-000-localized.json"))
        guard case .content(let alert) = payload.aps.alert else { Issue.record("alert is a dictionary"); return }
        #expect(alert.title == "通知的title")
        #expect(alert.titleLocArgs == ["t01", "t02"])
        #expect(alert.locKey == "LOC KEY")
        #expect(alert.locArgs == ["l01", "l_02"])
        #expect(payload.aps.sound == "sound01.wav")
        #expect(payload.aps.badge == 1)
        #expect(payload.aps.mutableContent)
        #expect(payload.aps.category == "realtime")
        #expect(payload[custom: "msgid"] == "123")
    }

    @Test func seed002ServiceExtensionRuleStillHolds() throws {
        // The string alert is visible, so the warning about mutable-content is only about its type.
        let diagnostics = PayloadLinter().lint(payload: try Examples.bytes("seed-002-image.json"))
        #expect(!diagnostics.contains { $0.code == .mutableContentWithoutAlert })
    }
}
