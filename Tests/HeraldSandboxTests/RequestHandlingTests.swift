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
