import Testing
@testable import HeraldCore

@Suite struct PayloadTests {
    @Test func builderMakesCommonCasesOneLine() {
        let payload = Payload.alert(title: "Hi", body: "You have mail").badge(3).sound(.default).category("MAIL").threadID("inbox")
        #expect(payload.jsonString == #"{"aps":{"alert":{"title":"Hi","body":"You have mail"},"badge":3,"sound":"default","category":"MAIL","thread-id":"inbox"}}"#)
        #expect(Payload.alert(body: "Hello").jsonString == #"{"aps":{"alert":"Hello"}}"#)
        #expect(Payload.background().jsonString == #"{"aps":{"content-available":1}}"#)
        #expect(Payload.alert(title: "T", body: "B").media(url: "https://x/y.png", type: "image").custom("msgid", "1").jsonString
            == #"{"aps":{"alert":{"title":"T","body":"B"},"mutable-content":1},"media":{"url":"https://x/y.png","type":"image"},"msgid":"1"}"#)
    }

    @Test func everyAPSKeyHasATypedProperty() throws {
        var aps = APS()
        aps.alert = .content(AlertContent(title: "t", subtitle: "s", body: "b"))
        aps.badge = 0
        aps.sound = .critical(CriticalSound(name: "alarm.caf", volume: 0.5))
        aps.threadID = "thread"
        aps.category = "cat"
        aps.contentAvailable = true
        aps.mutableContent = true
        aps.targetContentID = "target"
        aps.interruptionLevel = .timeSensitive
        aps.relevanceScore = 0.75
        aps.filterCriteria = "work"
        aps.timestamp = 1_700_000_000
        aps.event = .update
        aps.contentState = ["score": 2]
        aps.staleDate = 1_700_000_600
        aps.dismissalDate = 1_700_000_900
        aps.attributesType = "GameAttributes"
        aps.attributes = ["home": "A"]
        aps.inputPushToken = true
        aps.inputPushChannel = "channel"
        aps.contentChanged = true
        #expect(Set(aps.json.keys) == APSKey.all.subtracting([APSKey.urlArgs]))
        let decoded = try Payload(decoding: Payload(aps: aps).serialized).aps
        #expect(decoded == aps)
        #expect(decoded.sound == .critical(CriticalSound(name: "alarm.caf", volume: 0.5)))
        #expect(decoded.interruptionLevel == .timeSensitive)
        #expect(decoded.event == .update)
        #expect(decoded.relevanceScore == 0.75)
        #expect(decoded.contentChanged == true)
        aps.badge = nil
        aps.contentAvailable = false
        #expect(aps.json[APSKey.badge] == nil && aps.json[APSKey.contentAvailable] == nil)
    }

    @Test func alertDictionaryHasEveryLocalizationKey() throws {
        var content = AlertContent()
        content.titleLocKey = "T"
        content.titleLocArgs = ["a"]
        content.subtitleLocKey = "S"
        content.subtitleLocArgs = ["b"]
        content.locKey = "B"
        content.locArgs = ["c", "d"]
        content.launchImage = "launch.png"
        #expect(Set(content.json.keys) == [AlertKey.titleLocKey, AlertKey.titleLocArgs, AlertKey.subtitleLocKey, AlertKey.subtitleLocArgs, AlertKey.locKey, AlertKey.locArgs, AlertKey.launchImage])
        #expect(content.hasVisibleContent)
        #expect(!AlertContent().hasVisibleContent)
        #expect(!Alert.text("").hasVisibleContent)
    }

    @Test func wrongTypesReadAsNilButSurvive() throws {
        let text = #"{"aps":{"mutable-content":"1","badge":"3","alert":7,"x-custom":{"k":[1,2]}},"msgid":"123"}"#
        let payload = try Payload(decoding: text)
        #expect(payload.aps.mutableContent == false)
        #expect(payload.aps.badge == nil)
        #expect(payload.aps.alert == nil)
        #expect(payload.aps.unknownKeys == ["x-custom"])
        #expect(payload[custom: "msgid"] == "123")
        #expect(payload.jsonString == text)
    }

    @Test func roundTripsAnyObjectWithoutLoss() throws {
        let text = #"{"msgid":"1","aps":{"badge":1.0,"alert":{"title":"a","title":"b","unknown":null},"sound":{"critical":1,"name":"x","volume":1e0}},"n":-0.5E-3}"#
        let payload = try Payload(decoding: text)
        #expect(payload.jsonString == text)
        #expect(try Payload(decoding: payload.serialized) == payload)
    }

    @Test func rejectsNonObjectsWithAReason() {
        #expect(throws: PayloadDecodingError.notAnObject(found: "array")) { try Payload(decoding: "[1]") }
        #expect { try Payload(decoding: "{") } throws: { error in
            "\(error)".contains("not valid JSON") && "\(error)".contains("line 1, column 2")
        }
    }

    @Test func settingAPSKeepsItsPlaceAndCustomKeys() throws {
        var payload = try Payload(decoding: #"{"a":1,"aps":{"badge":1},"b":2}"#)
        payload.aps.badge = 5
        #expect(payload.jsonString == #"{"a":1,"aps":{"badge":5},"b":2}"#)
        #expect(payload.custom.keys == ["a", "b"])
        payload[custom: "aps"] = "ignored"
        #expect(payload.aps.badge == 5)
    }

    @Test func codableEmbedsAsJSON() throws {
        let payload = Payload.alert(body: "x").badge(1)
        let data = try JSONEncoder().encode(payload)
        let decoded = try JSONDecoder().decode(Payload.self, from: data)
        #expect(decoded.aps.alert == payload.aps.alert && decoded.aps.badge == 1, "key order may differ through Foundation's decoder")
    }

    @Test func rawBodyIsSentAsGiven() {
        let raw = Array("{ \"aps\" : { \"alert\" : \"x\" } }".utf8)
        #expect(PayloadBody.raw(raw).bytes == raw)
        #expect(PayloadBody.payload(.alert(body: "x")).bytes == Array(#"{"aps":{"alert":"x"}}"#.utf8))
    }

    @Test func pushTypeIsInferredFromThePayload() {
        #expect(PushType.inferred(from: .background()) == .background)
        #expect(PushType.inferred(from: .alert(body: "x")) == .alert)
        #expect(PushType.inferred(from: .background().badge(1)) == .alert)
        #expect(PushType.inferred(from: .liveActivity(.update, contentState: [:], timestamp: 1)) == .liveActivity)
        #expect(PushType.inferred(from: Payload(aps: APS(json: ["content-changed": true]))) == .widgets)
    }

    @Test func attachmentKinds() {
        #expect(AttachmentKind(fileExtension: "JPG") == .image)
        #expect(AttachmentKind(fileExtension: "tmp") == nil)
        #expect(AttachmentKind(mediaType: "video/mp4") == .video)
        #expect(AttachmentKind(mediaType: "mp3") == .audio)
        #expect(AttachmentKind(mediaType: "image") == .image)
        #expect(AttachmentKind.image.maximumByteCount == 10 * 1024 * 1024)
        #expect(AttachmentKind.fileExtension(ofURL: "https://x.com/a/b.png?x=1.gif") == "png")
        #expect(AttachmentKind.fileExtension(ofURL: "https://x.com/a/b?f=JPEG") == nil)
        #expect(AttachmentKind.fileExtension(ofURL: "https://x.com") == nil)
    }
}

import Foundation
