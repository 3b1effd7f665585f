import Foundation
import HeraldCore
import HeraldDevice
import HeraldTestSupport
import HeraldUserNotifications
import Testing
@testable import Seed002NotificationService

extension AppCodeTests {
    /// Seed 002's image service extension, ported to Swift, under iOS's rules: the 30 s budget and
    /// the attachment checks apply to the developer's own code.
    @Suite struct Seed002Tests {
        static func push(_ image: String) throws -> Payload {
            try Payload(decoding: #"{"aps":{"alert":{"title":"T","body":"B"},"mutable-content":1,"imageAbsoluteString":"\#(image)"}}"#)
        }

        static func launch(on device: SimulatedDevice, scale: Double = 1) async throws -> SimulatedApp {
            let app = try await SimulatedApp.launch(try AppFolders.load("QiShare"), on: device, settings: .granted,
                                                    serviceExtension: { NotificationService() }, extensionTimeScale: scale)
            try await device.setState(.background, app: app.bundle.bundleIdentifier)
            return app
        }

        @Test func theImageIsDownloadedAndAttached() async throws {
            let media = try await MediaServer.start()
            defer { Task { await media.stop() } }
            let device = SimulatedDevice()
            let app = try await Self.launch(on: device)
            let identifier = try await app.receive(try Self.push("\(media.baseURL)/avatar.png"))

            let shown = try #require(await device.shownNotification(identifier))
            #expect(shown.content.title == "我是标题")
            #expect(shown.content.subtitle == "我是子标题")
            #expect(shown.content.body == "来自徐不同")
            #expect(shown.content.attachments.count == 1)
            #expect(shown.content.attachments.first?.fileURL.pathExtension == "png")
            #expect(try Data(contentsOf: shown.content.attachments[0].fileURL) == Data(MediaServer.png))
            #expect(await device.events(.attachmentAdded).count == 1)
        }

        @Test func anImageSentThroughHeraldServeIsAttached() async throws {
            let serve = try await ServeFixture.start(bundleID: "com.qishare.demo")
            let media = try await MediaServer.start()
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(try AppFolders.load("QiShare"), on: device, settings: .granted,
                                                    serviceExtension: { NotificationService() }, sandbox: serve.sandboxAdminURL)
            try await app.run { await UIApplication.shared.registerForRemoteNotifications() }
            try await serve.register(try #require(app.deviceToken), user: "xu")
            try await device.setState(.background, app: app.bundle.bundleIdentifier)
            let sent = try await serve.send(toUser: "xu", #""payload": {"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1, "imageAbsoluteString": "\#(media.baseURL)/avatar.png"}}"#)
            #expect(sent == 1)
            #expect(await app.waitForPushes(1))
            let shown = try #require(await device.shown.last)
            #expect(shown.content.title == "我是标题")
            #expect(shown.content.attachments.map(\.fileURL.pathExtension) == ["png"])
            await app.terminate()
            await media.stop()
            await serve.stop()
        }

        @Test func aDownloadThatOutlastsTheThirtySecondsGivesTheBestAttempt() async throws {
            let media = try await MediaServer.start()
            defer { Task { await media.stop() } }
            let device = SimulatedDevice()
            // 30 virtual seconds are 1 real second; the download takes 2.
            let app = try await Self.launch(on: device, scale: 30)
            let identifier = try await app.receive(try Self.push("\(media.baseURL)/slow/2/avatar.png"))

            let shown = try #require(await device.shownNotification(identifier))
            #expect(shown.content.title == "我是标题")
            #expect(shown.content.attachments.isEmpty)
            #expect(await device.events(.extensionTimeWillExpire).count == 1)
            #expect(await device.events(.extensionLog).contains { $0.message == "NotificationService.serviceExtensionTimeWillExpire() called" })
            #expect(await device.events(.presented).count == 1)
        }

        @Test func anAttachmentOverTheImageLimitIsRefusedAndTheNotificationShownWithout() async throws {
            let media = try await MediaServer.start()
            defer { Task { await media.stop() } }
            let device = SimulatedDevice()
            let app = try await Self.launch(on: device)
            let identifier = try await app.receive(try Self.push("\(media.baseURL)/big.png"))

            let shown = try #require(await device.shownNotification(identifier))
            #expect(shown.content.attachments.isEmpty)
            let refusal = try #require(await device.events(.appCode).first { $0.details["call"] == "UNNotificationAttachment" })
            #expect(refusal.details["error"] == "attachmentInvalidFileSize")
        }

        @Test func theAttachmentInitializerThrowsAsIOSDoes() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-attachment-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let text = folder.appendingPathComponent("notes.txt")
            try Data("hello".utf8).write(to: text)
            let image = folder.appendingPathComponent("photo.jpg")
            try Data(MediaServer.jpeg).write(to: image)

            #expect(throws: UNError.self) { try UNNotificationAttachment(identifier: "a", url: text, options: nil) }
            do {
                _ = try UNNotificationAttachment(identifier: "a", url: text, options: nil)
            } catch let error as UNError {
                #expect(error.code == .attachmentUnrecognizedType)
            }
            do {
                _ = try UNNotificationAttachment(identifier: "a", url: URL(string: "https://example.com/photo.jpg")!, options: nil)
            } catch let error as UNError {
                #expect(error.code == .attachmentInvalidURL)
            }
            let attachment = try UNNotificationAttachment(identifier: "", url: image, options: nil)
            #expect(!attachment.identifier.isEmpty)
            #expect(attachment.type == "public.jpeg")
        }
    }
}
