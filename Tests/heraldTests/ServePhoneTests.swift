import Foundation
import HeraldCore
import Testing

/// The console's simulated iPhones through the API (`/v1/phones`), against a `herald serve`
/// process: a phone runs seed 000's app with its extensions, gets its token registered with the
/// sandbox and the server, shows what a send brings (the title rewritten, the picture attached,
/// the category's actions), and takes taps.
@Suite struct ServePhoneTests {
    @Test func aPhoneShowsWhatASendBringsAndTakesTaps() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-phone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ServeProcess.start([
            "--database", folder.appendingPathComponent("herald.sqlite").path,
            "--phone-app", HeraldCLI.repository.appendingPathComponent("Scenarios/apps/QiShare").path,
        ])
        defer { server.process.stop() }
        let admin = try #require(server.adminKey)
        let app = try await server.createApp(adminKey: admin)
        let other = try await server.call("POST", "/v1/apps", key: admin, body: #"{"name": "Other", "bundleId": "com.example.other"}"#, expect: 201)
        let otherKey = try #require(other["apiKey"]?["secret"]?.stringValue)

        let typo = try await server.call("POST", "/v1/phones", key: app.key, body: #"{"enviroment": "development"}"#, expect: 400)
        #expect(typo["error"]?["message"]?.stringValue?.contains("enviroment") == true, "\(typo)")
        let phone = try await server.call("POST", "/v1/phones", key: app.key, body: #"{"environment": "development"}"#, expect: 201)
        let id = try #require(phone["id"]?.stringValue)
        let token = try #require(phone["token"]?.stringValue)
        #expect(phone["bundleId"]?.stringValue == "com.example.app")
        // Registered with this server as the app would on launch.
        #expect(try await server.call("GET", "/v1/devices/\(token)", key: app.key)["state"]?.stringValue == "active")
        // Another app's key does not see it.
        try await server.call("GET", "/v1/phones/\(id)", key: otherKey, expect: 404)

        let picture = "http://127.0.0.1:\(server.port)/console/sample.png"
        let body = #"{"to": {"tokens": ["\#(token)"]}, "message": {"title": "Hello", "body": "World", "mutableContent": true, "data": {"media": {"url": "\#(picture)", "type": "image"}}}}"#
        let sent = try await server.call("POST", "/v1/notifications?wait=true", key: app.key, body: body)
        #expect(sent["report"]?["sent"]?.intValue == 1, "\(sent)")

        var shown: JSONValue?
        let deadline = ContinuousClock.now + .seconds(30)
        while shown == nil && ContinuousClock.now < deadline {
            let current = try await server.call("GET", "/v1/phones/\(id)", key: app.key)
            shown = current["notifications"]?.arrayValue?.first
            if shown == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        let notification = try #require(shown, "nothing shown within 30 s")
        #expect(notification["title"]?.stringValue == "Hello [ServiceExtension modified]")
        #expect(notification["attachments"]?.intValue == 1, "\(notification)")
        #expect(notification["category"]?.stringValue == "QiShareCategoryIdentifier")
        #expect(notification["actions"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["ActionA", "ActionB", "ActionC", "ActionD"])
        #expect(notification["svg"]?.stringValue?.hasPrefix("<svg") == true)
        let identifier = try #require(notification["identifier"]?.stringValue)

        let tapped = try await server.call(
            "POST", "/v1/phones/\(id)/tap", key: app.key, body: #"{"notification": "\#(identifier)", "action": "ActionD", "text": "hello"}"#
        )
        let transcript = tapped["transcript"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(transcript.contains { $0.contains("ActionD") }, "\(transcript.suffix(8))")
        let wrong = try await server.call(
            "POST", "/v1/phones/\(id)/tap", key: app.key, body: #"{"notification": "\#(identifier)", "action": "ActionZ"}"#, expect: 400
        )
        #expect(wrong["error"]?["message"]?.stringValue?.isEmpty == false)
        try await server.call("POST", "/v1/phones/\(id)/tap", key: app.key, body: #"{"notification": "nothing-like-it"}"#, expect: 400)

        // The side button: locked, then unlocked, each in the transcript.
        let locked = try await server.call("PATCH", "/v1/phones/\(id)", key: app.key, body: #"{"locked": true}"#)
        #expect(locked["locked"]?.boolValue == true)
        #expect(locked["transcript"]?.arrayValue?.last?.stringValue?.contains("device locked") == true, "\(locked)")
        let unlocked = try await server.call("PATCH", "/v1/phones/\(id)", key: app.key, body: #"{"locked": false}"#)
        #expect(unlocked["locked"]?.boolValue == false)
        try await server.call("PATCH", "/v1/phones/\(id)", key: app.key, body: #"{"lock": true}"#, expect: 400)
        try await server.call("PATCH", "/v1/phones/phone_nothing", key: app.key, body: #"{"locked": true}"#, expect: 404)

        #expect(try await server.call("GET", "/v1/phones", key: app.key)["phones"]?.arrayValue?.count == 1)
        try await server.call("DELETE", "/v1/phones/\(id)", key: app.key, expect: 204)
        try await server.call("GET", "/v1/phones/\(id)", key: app.key, expect: 404)
        #expect(await server.process.terminate() == 0)
    }
}
