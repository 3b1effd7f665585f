import Crypto
import Foundation
import HeraldCore
import HeraldSandbox
import Testing

/// How requests are read: malformed HTTP/2 header blocks, and the per-connection lint memo that
/// lets a repeated request skip lint without changing any answer.
@Suite struct RequestHandlingTests {
    @Test(arguments: [
        [("bad name", "x")],
        [("connection", "keep-alive")],
        [("te", "gzip")],
        [("apns-topic", "com.example.app\r\nx: y")],
    ])
    func malformedHeaderBlocksResetOnlyTheirStream(_ bad: [(String, String)]) async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect(validatingHeaders: false)
        let token = try fixture.device()
        #expect(try await client.send(path: "/3/device/\(token)", headers: try fixture.headers(), body: alertPayload).status == 200)
        do {
            let response = try await client.send(path: "/3/device/\(token)", headers: try fixture.headers() + bad, body: alertPayload)
            Issue.record("answered \(response.status) instead of resetting the stream")
        } catch let ClientHandler.ClientError.reset(code) {
            #expect(code.lowercased().contains("protocol"), "\(code)")
        }
        // The connection carries on.
        #expect(try await client.send(path: "/3/device/\(token)", headers: try fixture.headers(), body: alertPayload).status == 200)
    }

    /// Tokens shaped as popular clients make them, through the sandbox over HTTP/2: each is
    /// answered 200, as APNs answers their users.
    @Test func popularClientsTokensAreAccepted() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let iat = Int(fixture.clock.now.timeIntervalSince1970)
        func token(header: String, claims: String, der: Bool = false) throws -> String {
            let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
            let signature = try fixture.key.privateKey.signature(for: Data(input.utf8))
            return "bearer " + input + "." + Base64URL.encode(der ? Array(signature.derRepresentation) : Array(signature.rawRepresentation))
        }
        let shapes: [(client: String, authorization: String)] = [
            ("APNSwift", try token(header: #"{"alg":"ES256","typ":"JWT","kid":"ABC123DEFG"}"#, claims: #"{"iss":"DEF123GHIJ","iat":"\#(iat)","kid":"ABC123DEFG"}"#)),
            ("PyAPNs2", try token(header: #"{"alg":"ES256","kid":"ABC123DEFG","typ":"JWT"}"#, claims: #"{"iss":"DEF123GHIJ","iat":\#(iat).4721}"#)),
            ("Pushy", try token(header: #"{"alg":"ES256","typ":"JWT","kid":"ABC123DEFG"}"#, claims: #"{"iss":"DEF123GHIJ","iat":\#(iat)}"#, der: true)),
            ("node-apn", try token(header: #"{"alg":"ES256","typ":"JWT","kid":"ABC123DEFG"}"#, claims: #"{"iss":"DEF123GHIJ","iat":\#(iat)}"#)),
            ("apns2", try token(header: #"{"alg":"ES256","kid":"ABC123DEFG"}"#, claims: #"{"iat":\#(iat),"iss":"DEF123GHIJ"}"#)),
        ]
        let token = try fixture.device()
        for shape in shapes {
            // One connection per client, as each would open its own.
            let client = try await fixture.connect()
            let response = try await client.send(path: "/3/device/\(token)", headers: try fixture.headers(authorization: shape.authorization), body: alertPayload)
            #expect(response.status == 200, "\(shape.client): \(response)")
        }
    }

    @Test func mdmAndFileProviderPushesNeedNoAPS() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let mdmTopic = "com.apple.mgmt.External.3d5c1f2e-8a1b-4c6d-9e0f-1a2b3c4d5e6f"
        let mdm = try await client.send(path: "/3/device/\(try fixture.device(topic: mdmTopic))",
                                        headers: try fixture.headers(pushType: "mdm", topic: mdmTopic), body: #"{"mdm":"8E4D1A5C-PushMagic"}"#)
        #expect(mdm.status == 200, "\(mdm)")
        let fileProviderTopic = "com.example.app.pushkit.fileprovider"
        let fileProvider = try await client.send(
            path: "/3/device/\(try fixture.device(topic: fileProviderTopic))", headers: try fixture.headers(pushType: "fileprovider", topic: fileProviderTopic),
            body: #"{"container-identifier":"NSFileProviderWorkingSetContainerItemIdentifier","domain":"com.example.app.documents"}"#
        )
        #expect(fileProvider.status == 200, "\(fileProvider)")
        // An mdm push without its PushMagic is still refused.
        let empty = try await client.send(path: "/3/device/\(try fixture.device(topic: mdmTopic))",
                                          headers: try fixture.headers(pushType: "mdm", topic: mdmTopic), body: #"{"aps":{}}"#)
        #expect(empty.status == 400, "\(empty)")
    }

    @Test func aRepeatedRequestIsAnsweredAsIfLintedAgain() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let token = try fixture.device()
        let path = "/3/device/\(token)"
        let headers = try fixture.headers()
        for _ in 0..<3 {
            let id = UUID().uuidString
            let response = try await client.send(path: path, headers: headers + [("apns-id", id)], body: alertPayload)
            #expect(response.status == 200 && response.headers["apns-id"] == id)  // echoed as sent, uppercase included
        }
        // Same headers and body, but a bad apns-id: still BadMessageId.
        let badID = try await client.send(path: path, headers: headers + [("apns-id", "not-a-uuid")], body: alertPayload)
        #expect(badID.status == 400 && badID.body.contains("BadMessageId"), "\(badID)")
        // One byte less in the body (a closing brace): linted again, and refused.
        let truncated = try await client.send(path: path, headers: headers, body: String(alertPayload.dropLast()))
        #expect(truncated.status == 400, "\(truncated)")
        // Same body, one header different: linted again.
        let priority10Background = try await client.send(
            path: path, headers: try fixture.headers(pushType: "background", extra: [("apns-priority", "10")]), body: #"{"aps":{"content-available":1}}"#
        )
        #expect(priority10Background.status == 400 && priority10Background.body.contains("BadPriority"), "\(priority10Background)")
        // And the valid request again.
        #expect(try await client.send(path: path, headers: headers, body: alertPayload).status == 200)
        #expect(fixture.state.received(token: token).count == 4)
    }
}
