import Foundation
import HeraldCore
import HeraldDevice
import HeraldTestSupport
import HeraldUserNotifications
import Testing
@testable import Seed003NotificationService

extension AppCodeTests {
    /// Seed 003's communication-notification extension, ported to Swift: the avatar replaces the
    /// app icon when the app is set up for it, and the plain notification is shown when not.
    @Suite struct Seed003Tests {
        static func push(_ media: MediaServer) throws -> Payload {
            try Payload(decoding: """
                {"aps":{"alert":{"body":"测试一下内容","title":"测试一下标题","subtitle":"测试一下副标题"},"sound":"default","mutable-content":1},\
                "sender_image_url":"\(media.baseURL)/avatar.png"}
                """)
        }

        @Test func theSendersAvatarMakesACommunicationNotification() async throws {
            let media = try await MediaServer.start()
            defer { Task { await media.stop() } }
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(try AppFolders.load("Chat"), on: device, settings: .granted,
                                                    serviceExtension: { NotificationService() })
            try await device.setState(.background, app: app.bundle.bundleIdentifier)
            let identifier = try await app.receive(try Self.push(media))

            let shown = try #require(await device.shownNotification(identifier))
            let communication = try #require(shown.content.communication)
            #expect(communication.intent == "INSendMessageIntent")
            #expect(communication.senderName == "测试一下标题 [modified]")
            #expect(communication.senderImage == Data(MediaServer.png))
            #expect(communication.groupName == "测试一下副标题")
            #expect(await device.events(.appCode).contains { $0.details["call"] == "donate" })
            #expect(await device.events(.presented).last?.details["sender"] == "测试一下标题 [modified]")
        }

        @Test func aMessageSentThroughHeraldServeShowsTheSendersAvatar() async throws {
            let serve = try await ServeFixture.start(bundleID: "com.example.chat")
            let media = try await MediaServer.start()
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(try AppFolders.load("Chat"), on: device, settings: .granted,
                                                    serviceExtension: { NotificationService() }, sandbox: serve.sandboxAdminURL)
            try await app.run { await UIApplication.shared.registerForRemoteNotifications() }
            try await serve.register(try #require(app.deviceToken), user: "bob")
            try await device.setState(.background, app: app.bundle.bundleIdentifier)
            let sent = try await serve.send(toUser: "bob", """
                "message": {"title": "Alice", "subtitle": "Climbing", "body": "Tomorrow at 9?", "mutableContent": true,
                 "data": {"sender_image_url": "\(media.baseURL)/avatar.png"}}
                """)
            #expect(sent == 1)
            #expect(await app.waitForPushes(1))
            let communication = try #require(await device.shown.last?.content.communication)
            #expect(communication.senderName == "Alice [modified]")
            #expect(communication.senderImage == Data(MediaServer.png))
            await app.terminate()
            await media.stop()
            await serve.stop()
        }

        @Test func anAppNotSetUpForItShowsThePlainNotification() async throws {
            let media = try await MediaServer.start()
            defer { Task { await media.stop() } }
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(try AppFolders.load("ChatMissingActivityTypes"), on: device, settings: .granted,
                                                    serviceExtension: { NotificationService() })
            try await device.setState(.background, app: app.bundle.bundleIdentifier)
            let identifier = try await app.receive(try Self.push(media))

            let shown = try #require(await device.shownNotification(identifier))
            #expect(shown.content.communication == nil)
            #expect(shown.content.title == "测试一下标题 [modified]")
            let refusal = try #require(await device.events(.appCode).first { $0.details["call"] == "updating(from:)" })
            #expect(refusal.message.contains("does not list INSendMessageIntent"))
        }

        @Test func contentNotDeliveredToAnAppIsUpdatedWithoutChecks() throws {
            let content = UNMutableNotificationContent()
            let sender = INPerson(personHandle: INPersonHandle(value: "a", type: .unknown), nameComponents: nil, displayName: "A",
                                  image: nil, contactIdentifier: nil, customIdentifier: nil)
            let intent = INSendMessageIntent(recipients: nil, outgoingMessageType: .outgoingMessageText, content: "hi", speakableGroupName: nil,
                                             conversationIdentifier: "c", serviceName: nil, sender: sender, attachments: nil)
            // Content not delivered to an app: nothing to check against, so it is updated.
            let updated = try content.updating(from: intent)
            #expect(updated.title == "")
        }
    }
}
