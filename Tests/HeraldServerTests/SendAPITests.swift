import Crypto
import Foundation
import HTTPTypes
import HeraldCore
import HeraldSandbox
import Testing
@testable import HeraldServer

@Suite("API: sending, delivery and reports")
struct SendAPITests {
    @Test("wait=true delivers through the sandbox, each device gets its locale's variant, and the reports agree")
    func sendAndWait() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        let sandbox = test.sandbox
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            _ = try await api.call(.put, "/v1/devices/\(token(1))", key: app.key, json: ["environment": "development", "userId": "li", "locale": "zh-Hans-CN"])
            _ = try await api.call(.put, "/v1/devices/\(token(2))", key: app.key, json: ["environment": "development", "userId": "bob", "locale": "en-GB"])
            _ = try await api.call(.put, "/v1/devices/\(token(3))", key: app.key, json: ["environment": "development", "userId": "eve", "locale": "fr-FR"])
            let answer = try await api.call(.post, "/v1/notifications?wait=true", key: app.key, json: [
                "to": ["all": true],
                "message": ["title": "Hello", "body": "Fallback", "data": ["orderId": 42]],
                "locales": ["zh-Hans": ["message": ["title": "你好", "body": "中文"]], "en": ["payload": ["aps": ["alert": "English"]]]],
                "collapseId": "order-42",
            ])
            #expect(answer.status == 200, "\(answer.text)")
            let results = try #require(answer["results"] as? [[String: Any]])
            #expect(results.count == 3)
            #expect(results.allSatisfy { $0["state"] as? String == "sent" && $0["status"] as? Int == 200 })
            let payloads = Dictionary(uniqueKeysWithValues: (1...3).map { number in
                (number, sandbox.state.received(token: token(number)).last?.payload ?? "")
            })
            #expect(payloads[1]!.contains("中文"))
            #expect(payloads[2] == #"{"aps":{"alert":"English"}}"#)
            #expect(payloads[3]!.contains("Fallback") && payloads[3]!.contains("\"orderId\":42"))
            // The apns-id recorded is the one the sandbox received.
            let recorded = Set(results.compactMap { $0["apnsId"] as? String })
            let received = Set((1...3).compactMap { sandbox.state.received(token: token($0)).last?.id.lowercased() })
            #expect(recorded == received)
            #expect(sandbox.state.received(token: token(1)).last?.collapseID == "order-42")

            let id = try #require(answer["id"] as? String)
            let report = try await api.call(.get, "/v1/notifications/\(id)?deliveries=true", key: app.key)
            #expect(report["audienceSize"] as? Int == 3)
            #expect(report["sent"] as? Int == 3)
            #expect(report["pending"] as? Int == 0)
            #expect((report["deliveries"] as? [Any])?.count == 3)
            let history = try await api.call(.get, "/v1/devices/\(token(1))/deliveries?limit=5", key: app.key)
            #expect((history["deliveries"] as? [[String: Any]])?.first?["notificationId"] as? String == id)
            #expect(try await api.call(.get, "/v1/devices/\(token(1))/deliveries?limit=0", key: app.key).status == 400)
            let metrics = try await api.call(.get, "/metrics")
            #expect(metrics.text.contains(#"herald_sends_total{status="200",reason=""} 3"#))
        }
    }

    @Test("seal: each device with a key gets the alert sealed for it, others the fallback; bad seals say why")
    func sealedAlerts() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        let sandbox = test.sandbox
        let deviceKey = Curve25519.KeyAgreement.PrivateKey()
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            _ = try await api.call(.put, "/v1/devices/\(token(1))", key: app.key, json: [
                "environment": "development", "userId": "li", "locale": "zh-Hans-CN", "encryptionKey": deviceKey.publicKey.rawRepresentation.base64EncodedString(),
            ])
            _ = try await api.call(.put, "/v1/devices/\(token(2))", key: app.key, json: ["environment": "development", "userId": "li"])
            let answer = try await api.call(.post, "/v1/notifications?wait=true", key: app.key, json: [
                "to": ["users": ["li"]],
                "message": ["title": "New message", "body": "Open the app"],
                "locales": ["zh-Hans": ["message": ["title": "新消息", "body": "打开应用查看"]]],
                "seal": ["title": "Li", "body": "The code is 4821"],
            ])
            #expect(answer.status == 200, "\(answer.text)")
            let sealedPayload = try Payload(decoding: try #require(sandbox.state.received(token: token(1)).last?.payload))
            #expect(sealedPayload.aps.mutableContent)
            #expect(sealedPayload.serialized.count > 0 && String(decoding: sealedPayload.serialized, as: UTF8.self).contains("打开应用查看"))
            let sealed = try #require(sealedPayload.json[SealedAlert.payloadKey]?.stringValue)
            #expect(try SealedAlert.open(sealed, with: deviceKey) == SealedAlert(title: "Li", body: "The code is 4821"))
            let plain = try #require(sandbox.state.received(token: token(2)).last?.payload)
            #expect(!plain.contains("4821") && !plain.contains(SealedAlert.payloadKey) && plain.contains("Open the app"))

            for (body, words) in [
                (["to": ["users": ["li"]], "message": ["body": "x"], "seal": ["body": ""]], "seal needs a title, subtitle or body"),
                (["to": ["users": ["li"]], "payload": ["aps": ["content-available": 1]], "seal": ["body": "x"]], "seal is for alert notifications"),
                (["to": ["users": ["li"]], "message": ["body": "x"], "seal": ["body": String(repeating: "y", count: 4000)]], "would be refused by APNs"),
            ] as [([String: Any], String)] {
                let refused = try await api.call(.post, "/v1/notifications", key: app.key, json: body)
                #expect((400...422).contains(refused.status))
                #expect(refused.errorMessage.contains(words), "\(refused.errorMessage)")
            }
        }
    }

    @Test("a background payload goes out at priority 5 when none is given, as herald send does")
    func backgroundPriorityIsInferred() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        let sandbox = test.sandbox
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            _ = try await api.call(.put, "/v1/devices/\(token(7))", key: app.key, json: ["environment": "development"])
            let answer = try await api.call(.post, "/v1/notifications?wait=true", key: app.key, json: [
                "to": ["tokens": [token(7)]], "payload": ["aps": ["content-available": 1]],
            ])
            #expect(answer.status == 200, "\(answer.text)")
            let received = try #require(sandbox.state.received(token: token(7)).last)
            #expect(received.priority == 5 && received.pushType == "background", "\(received)")
        }
    }

    @Test("lint errors refuse the send with diagnostics; bad targets and headers say what is allowed")
    func validation() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            let refused = try await api.call(.post, "/v1/notifications", key: app.key, json: [
                "to": ["all": true], "payload": ["aps": "hi"],
            ])
            #expect(refused.status == 422)
            #expect(refused.errorCode == "payload_rejected")
            let diagnostics = try #require((refused["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]])
            #expect(diagnostics.contains { $0["severity"] as? String == "error" && ($0["path"] as? String)?.contains("aps") == true }, "\(diagnostics)")

            for (body, words) in [
                (["to": ["all": true, "users": ["x"]], "message": ["body": "hi"]], "exactly one of tokens"),
                (["to": ["tags": ["a"], "match": "some"], "message": ["body": "hi"]], "any or all"),
                (["to": ["tokens": ["zz"]], "message": ["body": "hi"]], "device token"),
                (["to": ["all": true]], "exactly one of payload"),
                (["to": ["all": true], "message": ["body": "hi"], "priority": 7], "10, 5 or 1"),
                (["to": ["all": true], "message": ["body": "hi"], "pushType": "fax"], "is not one of"),
                (["to": ["all": true], "message": ["body": "hi"], "locales": ["!!": ["message": ["body": "x"]]]], "language tag"),
                (["message": ["body": "hi"]], "missing field 'to'"),
                (["to": ["all": true], "payload": ["mdm": "PushMagic"]], "pushType mdm is not sent by the App Server"),
                (["to": ["all": true], "payload": ["container-identifier": "c"]], "pushType fileprovider is not sent by the App Server"),
            ] as [([String: Any], String)] {
                let answer = try await api.call(.post, "/v1/notifications", key: app.key, json: body)
                #expect(answer.status == 400, "\(body)")
                #expect(answer.errorMessage.contains(words), "\(answer.errorMessage)")
            }
        }
    }

    @Test("the same idempotency key within 24 hours gives the same notification and sends nothing again")
    func idempotency() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        let sandbox = test.sandbox
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            _ = try await api.call(.put, "/v1/devices/\(token(1))", key: app.key, json: ["environment": "development"])
            let body: [String: Any] = ["to": ["all": true], "message": ["body": "once"]]
            let first = try await api.call(.post, "/v1/notifications?wait=true", key: app.key, json: body, headers: [HTTPField.Name("Idempotency-Key")!: "k-1"])
            let again = try await api.call(.post, "/v1/notifications?wait=true", key: app.key, json: body, headers: [HTTPField.Name("Idempotency-Key")!: "k-1"])
            #expect(first["id"] as? String == again["id"] as? String)
            #expect(again["duplicate"] as? Bool == true)
            #expect(sandbox.state.received(token: token(1)).count == 1)
            // The same key with another body or target is refused, and nothing is sent.
            for other in [
                ["to": ["all": true], "message": ["body": "twice?"]],
                ["to": ["tokens": [token(1)]], "message": ["body": "once"]],
            ] as [[String: Any]] {
                let reused = try await api.call(.post, "/v1/notifications", key: app.key, json: other, headers: [HTTPField.Name("Idempotency-Key")!: "k-1"])
                #expect(reused.status == 422 && reused.errorCode == "idempotency_key_reused", "\(reused.text)")
                #expect(reused.errorMessage.contains("k-1") && reused.errorMessage.contains(first["id"] as? String ?? "?"), "\(reused.errorMessage)")
            }
            #expect(sandbox.state.received(token: token(1)).count == 1)
            test.clock.advance(by: 86_401)
            let later = try await api.call(.post, "/v1/notifications", key: app.key, json: body, headers: [HTTPField.Name("Idempotency-Key")!: "k-1"])
            #expect(later["id"] as? String != first["id"] as? String)
        }
    }

    @Test("expired notifications are not sent; 410 deactivates the token, a wrong topic flags it, and registering again reactivates")
    func expiryAndTokenFeedback() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        let sandbox = test.sandbox
        let clock = test.clock
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            for number in 1...3 { _ = try await api.call(.put, "/v1/devices/\(token(number))", key: app.key, json: ["environment": "development"]) }
            let expired = try await api.call(.post, "/v1/notifications?wait=true", key: app.key, json: [
                "to": ["tokens": [token(1)]], "message": ["body": "late"], "expiration": Int(clock.now.timeIntervalSince1970) - 60,
            ])
            #expect((expired["report"] as? [String: Any])?["expired"] as? Int == 1, "\(expired.text)")
            #expect(sandbox.state.received(token: token(1)).isEmpty)

            sandbox.state.setAutoAccept(false)
            _ = try sandbox.state.register(token: DeviceToken(parsing: token(1)), topic: "com.example.demo", environment: .development)
            let device2 = try DeviceToken(parsing: token(2))
            _ = try sandbox.state.register(token: device2, topic: "com.example.demo", environment: .development)
            _ = try sandbox.state.unregister(token: token(2))
            _ = try sandbox.state.register(token: DeviceToken(parsing: token(3)), topic: "com.other.app", environment: .development)
            let answer = try await api.call(.post, "/v1/notifications?wait=true", key: app.key, json: ["to": ["all": true], "message": ["body": "hi"]])
            let report = try #require(answer["report"] as? [String: Any])
            #expect(report["sent"] as? Int == 1)
            #expect(report["failedByReason"] as? [String: Int] == ["Unregistered": 1, "DeviceTokenNotForTopic": 1])
            #expect(try await api.call(.get, "/v1/devices/\(token(2))", key: app.key)["state"] as? String == "unregistered")
            let flagged = try await api.call(.get, "/v1/devices/\(token(3))", key: app.key)
            #expect(flagged["state"] as? String == "invalid")
            #expect(flagged["stateReason"] as? String == "DeviceTokenNotForTopic")
            // Inactive tokens are left out of the next audience.
            let next = try await api.call(.post, "/v1/notifications", key: app.key, json: ["to": ["all": true], "message": ["body": "hi"]])
            #expect(next["audienceSize"] as? Int == 1)
            // The app registers token 2 again after the 410: it is active again.
            clock.advance(by: 5)
            let again = try await api.call(.put, "/v1/devices/\(token(2))", key: app.key, json: ["environment": "development"])
            #expect(again["state"] as? String == "active")
        }
    }
}
