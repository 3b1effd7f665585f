import Crypto
import Foundation
import HeraldCore
import HeraldHTTP1
import HeraldSandbox
import Testing

/// One test per reason in APNs' table: the sandbox answers it with Apple's status and JSON body.
@Suite struct ReasonTests {
    func expect(_ response: H2TestClient.Response, _ reason: APNsReason, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == reason.status, "status for \(reason)", sourceLocation: sourceLocation)
        #expect(response.body == #"{"reason":"\#(reason.rawValue)"}"# || response.body.hasPrefix(#"{"reason":"\#(reason.rawValue)","timestamp":"#), "body \(response.body)", sourceLocation: sourceLocation)
        #expect(response.headers["apns-id"]?.count == 36, sourceLocation: sourceLocation)
    }

    @Test func successEchoesTheIDAndGivesAUniqueIDInDevelopment() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let token = try fixture.device()
        let id = "123e4567-e89b-12d3-a456-426614174000"
        let response = try await client.send(path: "/3/device/\(token)", headers: try fixture.headers(extra: [("apns-id", id)]), body: alertPayload)
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.headers["apns-id"] == id)
        #expect(response.headers["apns-unique-id"]?.count == 36)
        #expect(fixture.state.received(token: token).first?.payload == alertPayload)
        await client.close()
    }

    @Test func productionGivesNoUniqueID() async throws {
        let fixture = try await SandboxFixture.start(environment: .production)
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let response = try await client.send(path: "/3/device/\(try fixture.device())", headers: try fixture.headers(), body: alertPayload)
        #expect(response.status == 200 && response.headers["apns-unique-id"] == nil)
    }

    @Test func requestAndHeaderReasons() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let token = try fixture.device()
        let voipToken = try fixture.device(topic: "com.example.app.voip")
        let path = "/3/device/\(token)"
        func send(_ method: String = "POST", path: String = path, extra: [(String, String)] = [], pushType: String = "alert", topic: String = SandboxFixture.bundleID, body: String = alertPayload, omit: Set<String> = []) async throws -> H2TestClient.Response {
            let headers = try fixture.headers(pushType: pushType, topic: topic, extra: extra).filter { !omit.contains($0.0) }
            return try await client.send(method: method, path: path, headers: headers, body: body)
        }
        expect(try await send("GET"), .methodNotAllowed)
        expect(try await send(path: "/3/devices/\(token)"), .badPath)
        expect(try await send(path: "/3/device/"), .missingDeviceToken)
        expect(try await send(path: "/3/device/xyz"), .badDeviceToken)
        expect(try await send(path: "/3/device/abcdef"), .badDeviceToken)
        expect(try await send(extra: [("apns-collapse-id", String(repeating: "c", count: 65))]), .badCollapseID)
        expect(try await send(extra: [("apns-expiration", "soon")]), .badExpirationDate)
        expect(try await send(extra: [("apns-id", "not-a-uuid")]), .badMessageID)
        expect(try await send(extra: [("apns-priority", "7")]), .badPriority)
        expect(try await send(extra: [("apns-priority", "10")], pushType: "background", body: #"{"aps":{"content-available":1}}"#), .badPriority)
        // No apns-priority on a background push: accepted, as field reports say APNs does
        // (the rule and its sources are in HeraldCore's LintRun+Headers).
        let unsetPriority = try await send(pushType: "background", body: #"{"aps":{"content-available":1}}"#)
        #expect(unsetPriority.status == 200, "\(unsetPriority)")
        expect(try await send(topic: "com example"), .badTopic)
        expect(try await send(topic: "com.other.app"), .deviceTokenNotForTopic)
        expect(try await send(path: "/3/device/\(voipToken)", pushType: "voip", topic: "com.example.app"), .deviceTokenNotForTopic)
        expect(try await send(extra: [("apns-topic", "com.example.app")]), .duplicateHeaders)
        expect(try await send(pushType: "sms"), .invalidPushType)
        expect(try await send(omit: ["apns-topic"]), .missingTopic)
        expect(try await send(body: ""), .payloadEmpty)
        expect(try await send(body: #"{"aps":{"alert":"\#(String(repeating: "x", count: 4100))"}}"#), .payloadTooLarge)
        // The size is checked before the JSON is read, as APNs does: broken and oversized is 413.
        expect(try await send(body: #"{"aps":{"alert":"\#(String(repeating: "x", count: 4100))","#), .payloadTooLarge)
        expect(try await send(body: "[1,2]"), .badPayload)
        // VoIP allows 5120 bytes.
        let voip = try await send(path: "/3/device/\(voipToken)", pushType: "voip", topic: "com.example.app.voip", body: #"{"aps":{},"x":"\#(String(repeating: "x", count: 4500))"}"#)
        #expect(voip.status == 200)
        await client.close()
    }

    @Test func deviceReasons() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let headers = try fixture.headers()
        // Unknown token, and a token of the other environment.
        expect(try await client.send(path: "/3/device/\(String(repeating: "ab", count: 32))", headers: headers, body: alertPayload), .badDeviceToken)
        let production = try fixture.state.register(topic: SandboxFixture.bundleID, environment: .production).token
        expect(try await client.send(path: "/3/device/\(production)", headers: headers, body: alertPayload), .badDeviceToken)
        // Unregistered: 410 with the time of unregistration in milliseconds.
        let gone = try fixture.device()
        fixture.clock.advance(by: 5)
        _ = try fixture.state.unregister(token: gone)
        let unregistered = try await client.send(path: "/3/device/\(gone)", headers: headers, body: alertPayload)
        #expect(unregistered.status == 410)
        #expect(unregistered.body == #"{"reason":"Unregistered","timestamp":1700000005000}"#)
        let expired = try fixture.device()
        _ = try fixture.state.unregister(token: expired, expired: true)
        expect(try await client.send(path: "/3/device/\(expired)", headers: headers, body: alertPayload), .expiredToken)
        // Registering again makes it valid again.
        try fixture.state.register(token: try DeviceToken(parsing: gone), topic: SandboxFixture.bundleID)
        #expect(try await client.send(path: "/3/device/\(gone)", headers: headers, body: alertPayload).status == 200)
        await client.close()
    }

    @Test func tooManyRequestsToOneToken() async throws {
        let fixture = try await SandboxFixture.start(burstLimit: 3)
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let token = try fixture.device()
        let headers = try fixture.headers()
        var statuses: [Int] = []
        for _ in 0..<4 { statuses.append(try await client.send(path: "/3/device/\(token)", headers: headers, body: alertPayload).status) }
        #expect(statuses == [200, 200, 200, 429])
        #expect(try await client.send(path: "/3/device/\(try fixture.device())", headers: headers, body: alertPayload).status == 200, "other tokens are not limited")
        fixture.clock.advance(by: 1)
        #expect(try await client.send(path: "/3/device/\(token)", headers: headers, body: alertPayload).status == 200)
    }

    @Test func providerTokenReasons() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let token = try fixture.device()
        let path = "/3/device/\(token)"
        func send(authorization: String?) async throws -> H2TestClient.Response {
            let client = try await fixture.connect()
            defer { Task { await client.close() } }
            var headers = try fixture.headers()
            headers.removeAll { $0.0 == "authorization" }
            if let authorization { headers.append(("authorization", authorization)) }
            return try await client.send(path: path, headers: headers, body: alertPayload)
        }
        expect(try await send(authorization: nil), .missingProviderToken)
        let stranger = try ProviderKey(privateKey: P256.Signing.PrivateKey(), keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        expect(try await send(authorization: try fixture.bearer(stranger)), .invalidProviderToken)
        expect(try await send(authorization: try fixture.bearer(issuedAt: fixture.clock.now.addingTimeInterval(-3601))), .expiredProviderToken)
        // A key enabled only for production, on a development sandbox.
        let productionKey = try ProviderKey(privateKey: P256.Signing.PrivateKey(), keyID: "PROD123456", teamID: "DEF123GHIJ")
        fixture.state.register(key: .init(keyID: productionKey.keyID, teamID: productionKey.teamID, publicKey: productionKey.publicKey), environment: .production)
        expect(try await send(authorization: try fixture.bearer(productionKey)), .badEnvironmentKeyInToken)
        // A revoked key.
        let revoked = try ProviderKey(privateKey: P256.Signing.PrivateKey(), keyID: "REVOKED123", teamID: "DEF123GHIJ")
        fixture.state.register(key: .init(keyID: revoked.keyID, teamID: revoked.teamID, publicKey: revoked.publicKey))
        fixture.state.revoke(keyID: revoked.keyID)
        expect(try await send(authorization: try fixture.bearer(revoked)), .forbidden)
    }

    @Test func unrelatedKeyOnTheSameConnection() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let other = try ProviderKey(privateKey: P256.Signing.PrivateKey(), keyID: "OTHER12345", teamID: "TEAM999999")
        fixture.state.register(key: .init(keyID: other.keyID, teamID: other.teamID, publicKey: other.publicKey))
        let client = try await fixture.connect()
        let path = "/3/device/\(try fixture.device())"
        #expect(try await client.send(path: path, headers: try fixture.headers(), body: alertPayload).status == 200)
        expect(try await client.send(path: path, headers: try fixture.headers(authorization: try fixture.bearer(other)), body: alertPayload), .unrelatedKeyIDInToken)
        // The other team's key is fine on a connection of its own.
        let second = try await fixture.connect()
        #expect(try await second.send(path: path, headers: try fixture.headers(authorization: try fixture.bearer(other)), body: alertPayload).status == 200)
    }

    @Test func tokenChangedTooSoon() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let path = "/3/device/\(try fixture.device())"
        let first = try fixture.bearer()
        let client = try await fixture.connect()
        #expect(try await client.send(path: path, headers: try fixture.headers(authorization: first), body: alertPayload).status == 200)
        fixture.clock.advance(by: 10 * 60)
        let tooSoon = try fixture.bearer()
        expect(try await client.send(path: path, headers: try fixture.headers(authorization: tooSoon), body: alertPayload), .tooManyProviderTokenUpdates)
        // The first token keeps working, and a new one 20 minutes later is accepted.
        #expect(try await client.send(path: path, headers: try fixture.headers(authorization: first), body: alertPayload).status == 200)
        fixture.clock.advance(by: 10 * 60)
        #expect(try await client.send(path: path, headers: try fixture.headers(authorization: try fixture.bearer()), body: alertPayload).status == 200)
    }

    @Test func faultsAnswer429And500And503() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        try fixture.state.setFaults(FaultPlan(script: [.tooManyRequests, .internalServerError, .serviceUnavailable]))
        let client = try await fixture.connect()
        let path = "/3/device/\(try fixture.device())"
        expect(try await client.send(path: path, headers: try fixture.headers(), body: alertPayload), .tooManyRequests)
        expect(try await client.send(path: path, headers: try fixture.headers(), body: alertPayload), .internalServerError)
        expect(try await client.send(path: path, headers: try fixture.headers(), body: alertPayload), .serviceUnavailable)
        #expect(try await client.send(path: path, headers: try fixture.headers(), body: alertPayload).status == 200)
        #expect(throws: SandboxError.self) { try FaultAnswer(status: 404) }
        #expect(throws: SandboxError.self) { try fixture.state.setFaults(FaultPlan(rates: ["404": 0.5])) }
        let counters = fixture.state.counters
        #expect(counters.byStatus["503"] == 1 && counters.byReason["TooManyRequests"] == 1 && counters.byStatus["200"] == 1)
    }

    @Test func anyDocumentedAnswerCanBeScriptedThroughTheAdminAPIWithEveryFieldOptional() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let admin = fixture.sandbox.adminPort!
        func put(_ json: String) async throws -> (status: Int, body: String) {
            let answer = try await HTTP1Exchange.send(method: .PUT, host: "127.0.0.1", port: admin, path: "/faults", body: Array(json.utf8))
            return (answer.status, String(decoding: answer.body, as: UTF8.self))
        }
        // Only a script: the other fields are optional.
        let scripted = try await put(#"{"script":["503 Shutdown", "Shutdown", 429, "410 Unregistered"]}"#)
        #expect(scripted.status == 200, "\(scripted.body)")
        #expect(scripted.body.contains(#""script":["503 Shutdown","503 Shutdown",429,"410 Unregistered"]"#), "\(scripted.body)")
        let path = "/3/device/\(try fixture.device())"
        var client = try await fixture.connect()
        expect(try await client.send(path: path, headers: try fixture.headers(), body: alertPayload), .shutdown)
        // 503 Shutdown closes the connection with GOAWAY, as APNs does.
        #expect(try await client.goAwayReason() == "Shutdown")
        client = try await fixture.connect()
        expect(try await client.send(path: path, headers: try fixture.headers(), body: alertPayload), .shutdown)
        client = try await fixture.connect()
        expect(try await client.send(path: path, headers: try fixture.headers(), body: alertPayload), .tooManyRequests)
        let gone = try await client.send(path: path, headers: try fixture.headers(), body: alertPayload)
        expect(gone, .unregistered)
        #expect(gone.body.contains(#""timestamp":"#), "a scripted 410 carries a timestamp: \(gone.body)")
        #expect(try await client.send(path: path, headers: try fixture.headers(), body: alertPayload).status == 200)

        // Only a latency, or only rates keyed as answers are written.
        #expect(try await put(#"{"latencyMilliseconds":5}"#).status == 200)
        #expect(fixture.state.faults == FaultPlan(latencyMilliseconds: 5))
        #expect(try await put(#"{"rates":{"503 Shutdown":0.5}}"#).status == 200)
        #expect(try await put("{}").status == 200)
        #expect(fixture.state.faults.isEmpty)

        // Mistakes say what is allowed.
        let typo = try await put(#"{"latency":5}"#)
        #expect(typo.status == 400 && typo.body.contains("unknown field") && typo.body.contains("latencyMilliseconds"), "\(typo.body)")
        let wrongPair = try await put(#"{"script":["500 Shutdown"]}"#)
        #expect(wrongPair.status == 400 && wrongPair.body.contains("Shutdown with 503"), "\(wrongPair.body)")
        let unknown = try await put(#"{"script":["Sleepy"]}"#)
        #expect(unknown.status == 400 && unknown.body.contains("Sleepy") && unknown.body.contains("503 Shutdown"), "\(unknown.body)")
        let fraction = try await put(#"{"latencyMilliseconds":1.5}"#)
        #expect(fraction.status == 400 && fraction.body.contains("latencyMilliseconds") && fraction.body.contains("whole number"), "\(fraction.body)")
        let broken = try await put("{")
        #expect(broken.status == 400 && broken.body.contains("line 1, column 2"), "\(broken.body)")
        let notAnAnswer = try await put(#"{"script":[true]}"#)
        #expect(notAnAnswer.status == 400 && notAnAnswer.body.contains("script[0]") && notAnAnswer.body.contains("503 Shutdown"), "\(notAnAnswer.body)")
        let overOne = try await put(#"{"rates":{"500":0.5,"503 Shutdown":0.6}}"#)
        #expect(overOne.status == 400 && overOne.body.contains("add up to 1 or less"), "\(overOne.body)")
        let synonyms = try await put(#"{"rates":{"503":0.1,"ServiceUnavailable":0.1}}"#)
        #expect(synonyms.status == 400 && synonyms.body.contains("the same answer"), "\(synonyms.body)")
        let herald = try await put(#"{"script":["400 BadPayload"]}"#)
        #expect(herald.status == 400 && herald.body.contains("not one APNs documents"), "\(herald.body)")
        let documented = try await put(#"{"script":["BadEnvironmentKeyIdInToken"]}"#)
        #expect(documented.status == 200 && documented.body.contains("403 BadEnvironmentKeyInToken"), "sent in APNs's spelling: \(documented.body)")
        #expect(try await put("{}").status == 200)
        let badStatus = try await put(#"{"script":[404]}"#)
        #expect(badStatus.status == 400 && badStatus.body.contains("429, 500, 503"), "\(badStatus.body)")
    }

    @Test func idleConnectionsAreClosedWithIdleTimeout() async throws {
        let fixture = try await SandboxFixture.start(idleTimeout: 0.3)
        defer { Task { await fixture.stop() } }
        let idle = try await fixture.connect()
        #expect(try await idle.goAwayReason() == "IdleTimeout")
    }

    @Test func goAwayAfterStreamsAndOnShutdown() async throws {
        // No idle timeout here: under a loaded machine it could close these connections first.
        let fixture = try await SandboxFixture.start()
        try fixture.state.setFaults(FaultPlan(goAwayAfterStreams: 2))
        let client = try await fixture.connect()
        let path = "/3/device/\(try fixture.device())"
        #expect(try await client.send(path: path, headers: try fixture.headers(), body: alertPayload).status == 200)
        #expect(try await client.send(path: path, headers: try fixture.headers(), body: alertPayload).status == 200)
        #expect(try await client.goAwayReason() == "Shutdown")
        try fixture.state.setFaults(FaultPlan())
        // Shutting down says GOAWAY Shutdown to open connections.
        let open = try await fixture.connect()
        #expect(try await open.send(path: path, headers: try fixture.headers(), body: alertPayload).status == 200)
        try await fixture.sandbox.shutdown()
        #expect(try await open.goAwayReason() == "Shutdown")
    }
}
