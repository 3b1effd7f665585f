import Foundation
import HeraldCore
import HeraldDevice
import HeraldTestSupport
import HeraldUserNotifications
import Testing
@testable import Seed000App
@testable import Seed000NotificationContent
@testable import Seed000NotificationService

extension AppCodeTests {
    /// Seed 000's app, ported to Swift, end to end: its app delegate asks for authorization and
    /// registers with the sandbox, a push sent through APNs' HTTP/2 API reaches its service
    /// extension, which registers the category and attaches the media, and the user's actions
    /// reach its delegate.
    @Suite struct Seed000Tests {
        @MainActor static func received(_ app: SimulatedApp) -> [String] {
            (app.application.delegate as? AppDelegate)?.received ?? []
        }

        @Test func aPushThroughTheSandboxRunsTheAppsOwnCode() async throws {
            let fixture = try await SandboxFixture.start()
            let media = try await MediaServer.start()
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(
                try AppFolders.load("QiShare"), on: device, appDelegate: { AppDelegate() },
                serviceExtension: { NotificationService() }, sandbox: fixture.adminURL
            )
            let id = app.bundle.bundleIdentifier

            // Launch: authorization asked and granted, then registration through the sandbox.
            #expect(try await device.settings(id).authorization == .authorized)
            let token = try #require(app.deviceToken)
            #expect(await Self.received(app) == ["token \(token)"])

            try await device.setState(.background, app: id)
            let result = try await fixture.send("""
                {"aps":{"alert":{"title":"Title...","subtitle":"Subtitle...","body":"Body..."},"sound":"default","badge":1,\
                "mutable-content":1,"category":"QiShareCategoryIdentifier"},"msgid":"123","media":{"url":"\(media.baseURL)/photo","type":"image"}}
                """, to: token, topic: id)
            #expect(result.isSuccess, "\(result)")
            #expect(await app.waitForPushes(1))

            let shown = try #require(await device.shown.last)
            #expect(shown.content.title == "Title... [ServiceExtension modified]")
            #expect(shown.content.attachments.map(\.fileURL.pathExtension) == ["jpg"])
            #expect(shown.actions.map(\.identifier) == ["ActionA", "ActionB", "ActionC", "ActionD"])
            #expect(shown.content.userInfo["herald-userinfo-types"]?["image"]?.stringValue == "data")
            #expect(try await device.badge(id) == 1)

            // The text-input action goes to the app delegate with what was typed.
            try await device.tap(shown.identifier, action: "ActionD", text: "hello")
            await app.settle()
            #expect(await Self.received(app).last == "didReceive ActionD text hello")

            await app.terminate()
            await media.stop()
            try await fixture.stop()
        }

        /// The same app behind `herald serve`: the token is registered with the App Server's API,
        /// the seed's payload is sent as a message, and the seed's extension shapes what is shown.
        @Test func aNotificationSentThroughHeraldServeReachesTheSeedsExtension() async throws {
            let serve = try await ServeFixture.start(bundleID: "com.qishare.demo")
            let media = try await MediaServer.start()
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(
                try AppFolders.load("QiShare"), on: device, appDelegate: { AppDelegate() },
                serviceExtension: { NotificationService() }, sandbox: serve.sandboxAdminURL
            )
            let token = try #require(app.deviceToken)
            let registered = try await serve.call("PUT", "/v1/devices/\(token)", body: #"{"environment": "development", "userId": "qishare"}"#)
            #expect(registered.status == 200 || registered.status == 201)
            try await device.setState(.background, app: app.bundle.bundleIdentifier)

            let sent = try await serve.call("POST", "/v1/notifications?wait=true", body: """
                {"to": {"users": ["qishare"]}, "message": {"title": "Title...", "subtitle": "Subtitle...", "body": "Body...",
                 "badge": 1, "sound": "default", "category": "QiShareCategoryIdentifier", "mutableContent": true,
                 "data": {"msgid": "123", "media": {"url": "\(media.baseURL)/photo", "type": "image"}}}}
                """)
            #expect(sent.json?["report"]?["sent"]?.intValue == 1, "\(String(describing: sent.json))")
            #expect(await app.waitForPushes(1))
            let shown = try #require(await device.shown.last)
            #expect(shown.content.title == "Title... [ServiceExtension modified]")
            #expect(shown.content.attachments.map(\.fileURL.pathExtension) == ["jpg"])
            #expect(shown.actions.map(\.identifier) == ["ActionA", "ActionB", "ActionC", "ActionD"])

            try await device.dismiss(shown.identifier)
            await app.settle()
            #expect(await Self.received(app).last == "didReceive \(UNNotificationDismissActionIdentifier)")

            await app.terminate()
            await media.stop()
            await serve.stop()
        }

        /// Expanded, the seed's content extension shows the title, the changed subtitle and the
        /// image the service extension passed on; it keeps the notification for the seed's actions.
        @Test func theContentExtensionShowsWhatTheServiceExtensionPrepared() async throws {
            let media = try await MediaServer.start()
            defer { Task { await media.stop() } }
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(
                try AppFolders.load("QiShare"), on: device, appDelegate: { AppDelegate() }, serviceExtension: { NotificationService() },
                contentExtensions: ["NotificationContent": { NotificationViewController() }]
            )
            try await device.setState(.background, app: app.bundle.bundleIdentifier)
            let identifier = try await app.receive(try Payload(decoding: """
                {"aps":{"alert":{"title":"Title...","subtitle":"Subtitle...","body":"Body..."},"mutable-content":1,\
                "category":"QiShareCategoryIdentifier"},"media":{"url":"\(media.baseURL)/photo","type":"image"}}
                """))
            try await device.expand(identifier)
            await app.settle()
            let view = try #require(await device.events(.appCode).last { $0.details["call"] == "content-extension-didReceive" })
            #expect(view.details["view"] == [
                "label: Title... [ServiceExtension modified]", "label: Subtitle... [ContentExtension modified]",
                "image: \(MediaServer.jpeg.count) bytes", "label: 我是hintLabel",
            ].joined(separator: "\n"))

            // ActionB while expanded: the extension answers first and keeps the notification.
            try await device.tap(identifier, action: "ActionB")
            await app.settle()
            #expect(await device.events(.contentExtensionResponse).last?.details["answer"] == "do-not-dismiss")
            #expect(await device.shownNotification(identifier) != nil)
            #expect(await Self.received(app).allSatisfy { !$0.hasPrefix("didReceive ActionB") })
        }

        @Test func withoutASandboxRegistrationFailsIntoTheFailureCallback() async throws {
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(try AppFolders.load("QiShare"), on: device, appDelegate: { AppDelegate() })
            let lines = await Self.received(app)
            #expect(lines.count == 1 && lines[0].hasPrefix("registration failed: remote notifications need an APNs sandbox"))
        }

        @Test func theLocalNotificationFiresAfterFiveSecondsAndCanBeCancelled() async throws {
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(try AppFolders.load("QiShare"), on: device, appDelegate: { AppDelegate() })
            let id = app.bundle.bundleIdentifier
            let image = AppFolders.file("QiShare", "logo_img_02@2x.png")

            try await app.run { LocalNotifications.sendLocalNotification(attachmentImage: image) }
            #expect(try await device.pending(id).map(\.request.identifier) == [LocalNotifications.requestIdentifier])
            await device.advance(by: 4.9)
            #expect(await device.shown.isEmpty)
            await device.advance(by: 0.1)
            await app.settle()

            // In the foreground: the delegate's willPresent decides.
            let shown = try #require(await device.shown.last)
            #expect(shown.content.title == "通知-title" && shown.content.subtitle == "通知-subtitle")
            #expect(shown.content.attachments.map(\.identifier) == ["att1"])
            #expect(shown.options.contains(.banner))
            #expect(await device.events(.sound).first?.details["sound"] == "sound01.wav")
            #expect(await Self.received(app).contains("willPresent \(LocalNotifications.requestIdentifier)"))

            try await app.run {
                LocalNotifications.sendLocalNotification(attachmentImage: image)
                LocalNotifications.cancelLocalNotifications()
            }
            #expect(try await device.pending(id).isEmpty)
        }

        @Test func aLocalNotificationBeforeAuthorizationIsRefusedWithTheReason() async throws {
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(try AppFolders.load("QiShare"), on: device)
            let content = UNMutableNotificationContent()
            content.body = "too early"
            let request = UNNotificationRequest(identifier: "early", content: content, trigger: nil)
            await #expect(throws: UNError.self) { try await app.notificationCenter.add(request) }
            #expect(await device.events(.localRejected).count == 1)
            #expect(await device.shown.isEmpty)
        }
    }
}
