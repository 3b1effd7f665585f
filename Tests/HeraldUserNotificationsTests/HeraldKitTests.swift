import Crypto
import Foundation
import HeraldCore
import HeraldDevice
import HeraldHTTP1
import HeraldKit
import HeraldTestSupport
import HeraldUserNotifications
import Testing

/// An app's service extension made of HeraldKit, reading its key from a folder the test sets.
final class KitService: HeraldNotificationService {
    nonisolated(unsafe) static var keyFolder: URL?
    override var keyStore: (any HeraldKeyStore)? { Self.keyFolder.map(HeraldFileKeyStore.init(directory:)) }
}

/// An app delegate that registers with `herald serve` through HeraldKit.
final class KitAppDelegate: UIResponder, UIApplicationDelegate {
    nonisolated(unsafe) static var configuration: HeraldRegistration.Configuration?
    var registration: HeraldRegistration?
    var results: [String] = []

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound, .badge]) { granted, _ in
            guard granted else { return }
            DispatchQueue.main.async { UIApplication.shared.registerForRemoteNotifications() }
        }
        return true
    }

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        guard let configuration = Self.configuration else { return }
        let registration = HeraldRegistration(configuration)
        self.registration = registration
        registration.register(deviceToken: deviceToken)
    }
}

/// A content extension built on HeraldKit's helper.
final class KitContentViewController: UIViewController, UNNotificationContentExtension {
    let titleLabel = UILabel(frame: .zero)
    let imageView = UIImageView(frame: .zero)

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(titleLabel)
        view.addSubview(imageView)
    }

    func didReceive(_ notification: UNNotification) {
        let shown = HeraldNotificationContent(notification)
        titleLabel.text = shown.title
        imageView.image = shown.imageData.flatMap { UIImage(data: $0) }
    }
}

extension AppCodeTests {
    @Suite struct HeraldKitTests {
        static func keyFolder() throws -> URL {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-keys-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder
        }

        static func launch(on device: SimulatedDevice) async throws -> SimulatedApp {
            let app = try await SimulatedApp.launch(try AppFolders.load("Chat"), on: device, settings: .granted, serviceExtension: { KitService() })
            try await device.setState(.background, app: app.bundle.bundleIdentifier)
            return app
        }

        @Test func aSealedAlertOpensWithTheDevicesKeyAndShowsTheFallbackOtherwise() async throws {
            let folder = try Self.keyFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            KitService.keyFolder = folder
            let key = try HeraldFileKeyStore(directory: folder).existingOrNewKey()
            let device = SimulatedDevice()
            let app = try await Self.launch(on: device)

            func push(_ sealed: String) throws -> Payload {
                try Payload(decoding: #"{"aps":{"alert":{"title":"New message","body":"Open the app to read it"},"mutable-content":1},"herald-sealed":"\#(sealed)"}"#)
            }
            let secret = SealedAlert(title: "Alice", body: "The code is 4821")
            let opened = try await app.receive(try push(secret.seal(to: key.publicKey)))
            #expect(await device.shownNotification(opened)?.content.title == "Alice")
            #expect(await device.shownNotification(opened)?.content.body == "The code is 4821")

            // Sealed for another device: the server's fallback text.
            let other = try await app.receive(try push(secret.seal(to: Curve25519.KeyAgreement.PrivateKey().publicKey)))
            #expect(await device.shownNotification(other)?.content.body == "Open the app to read it")

            // A changed byte: the fallback text again.
            var bytes = try #require(Data(base64Encoded: try secret.seal(to: key.publicKey)))
            bytes[bytes.count - 5] ^= 0x40
            let tampered = try await app.receive(try push(bytes.base64EncodedString()))
            #expect(await device.shownNotification(tampered)?.content.body == "Open the app to read it")
            #expect(await device.shownNotification(tampered)?.content.title == "New message")
        }

        @Test func mediaAndASenderBecomeAnAttachmentAndACommunicationNotification() async throws {
            let media = try await MediaServer.start()
            defer { Task { await media.stop() } }
            KitService.keyFolder = nil
            let device = SimulatedDevice()
            let app = try await Self.launch(on: device)
            let identifier = try await app.receive(try Payload(decoding: """
                {"aps":{"alert":{"title":"Alice","body":"Look at this"},"mutable-content":1},\
                "media":{"url":"\(media.baseURL)/photo","type":"image"},\
                "sender":{"name":"Alice","imageUrl":"\(media.baseURL)/avatar.png","conversationId":"c-1","group":"Climbing"}}
                """))
            let shown = try #require(await device.shownNotification(identifier))
            #expect(shown.content.attachments.map(\.fileURL.pathExtension) == ["jpg"])
            let communication = try #require(shown.content.communication)
            #expect(communication.senderName == "Alice")
            #expect(communication.senderImage == Data(MediaServer.png))
            #expect(communication.conversationIdentifier == "c-1")
            #expect(communication.groupName == "Climbing")
        }

        /// HeraldKit's content helper, in seed 004's pattern: the view shows the first image
        /// attachment the service extension downloaded.
        @Test func theContentHelperShowsTheAttachedImage() async throws {
            let media = try await MediaServer.start()
            defer { Task { await media.stop() } }
            KitService.keyFolder = nil
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(
                try AppFolders.load("QiShare"), on: device, settings: .granted, serviceExtension: { KitService() },
                contentExtensions: ["NotificationContent": { KitContentViewController() }]
            )
            try await device.setState(.background, app: app.bundle.bundleIdentifier)
            // iOS uses the content extension only for a category the app registered.
            try await device.setCategories([NotificationCategory(identifier: "QiShareCategoryIdentifier", actions: [])], app: app.bundle.bundleIdentifier)
            let identifier = try await app.receive(try Payload(decoding: """
                {"aps":{"alert":{"title":"Parcel","body":"At the door"},"mutable-content":1,"category":"QiShareCategoryIdentifier"},\
                "media":{"url":"\(media.baseURL)/photo","type":"image"}}
                """))
            try await device.expand(identifier)
            await app.settle()
            let view = try #require(await device.events(.appCode).last { $0.details["call"] == "content-extension-didReceive" })
            #expect(view.details["view"] == "label: Parcel\nimage: \(MediaServer.jpeg.count) bytes")
        }

        /// `herald serve` seals the alert for each device with the key it registered: APNs sees
        /// only ciphertext, the app's HeraldKit extension opens it; a device without a key and a
        /// device whose key changed get the fallback text.
        @Test func aSealedAlertTravelsEndToEndThroughHeraldServe() async throws {
            let serve = try await ServeFixture.start(bundleID: "com.example.chat")
            let folder = try Self.keyFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            KitService.keyFolder = folder

            func launch(keyStore: (any HeraldKeyStore)?, user: String) async throws -> (SimulatedDevice, SimulatedApp, String) {
                KitAppDelegate.configuration = .init(serverURL: serve.baseURL, apiKey: serve.appKey, environment: "development",
                                                     userID: user, keyStore: keyStore)
                let device = SimulatedDevice()
                let app = try await SimulatedApp.launch(
                    try AppFolders.load("Chat"), on: device, appDelegate: { KitAppDelegate() }, serviceExtension: { KitService() },
                    sandbox: serve.sandboxAdminURL, environment: "development"
                )
                let token = try #require(app.deviceToken)
                for _ in 0..<200 where try await serve.call("GET", "/v1/devices/\(token)").status != 200 {
                    try await Task.sleep(for: .milliseconds(20))
                }
                try await device.setState(.background, app: app.bundle.bundleIdentifier)
                return (device, app, token)
            }
            let (withKey, keyApp, keyToken) = try await launch(keyStore: HeraldFileKeyStore(directory: folder), user: "alice")
            let (withoutKey, plainApp, _) = try await launch(keyStore: nil, user: "alice")
            #expect(try await serve.call("GET", "/v1/devices/\(keyToken)").json?["encryptionKey"]?.stringValue != nil)

            let seal = #""seal": {"title": "Alice", "body": "The code is 4821"}"#
            let fallback = #""message": {"title": "New message", "body": "Open the app to read it"}"#
            #expect(try await serve.send(toUser: "alice", fallback + ", " + seal) == 2)
            #expect(await keyApp.waitForPushes(1))
            #expect(await plainApp.waitForPushes(1))
            #expect(await withKey.shown.last?.content.body == "The code is 4821")
            #expect(await withKey.shown.last?.content.title == "Alice")
            #expect(await withoutKey.shown.last?.content.body == "Open the app to read it")

            // What APNs (the sandbox) was given: ciphertext and the fallback, never the secret.
            let (status, received) = try await HTTP1Exchange.send(
                method: .GET, host: "127.0.0.1", port: serve.sandbox.adminPort!, path: "/devices/\(keyToken)/notifications", body: []
            )
            #expect(status == 200)
            let text = String(decoding: received, as: UTF8.self)
            #expect(text.contains(SealedAlert.payloadKey) && !text.contains("4821"))

            // The app lost its key (reinstalled): the old one no longer opens new alerts.
            _ = try HeraldFileKeyStore(directory: folder).makeKey()
            #expect(try await serve.send(toUser: "alice", fallback + ", " + seal) == 2)
            #expect(await keyApp.waitForPushes(2))
            #expect(await withKey.shown.last?.content.body == "Open the app to read it")

            await keyApp.terminate()
            await plainApp.terminate()
            await serve.stop()
        }

        /// The whole path through `herald serve`: the app registers with HeraldKit (token, locale,
        /// time zone, public key), the server sends through its sandbox, the app's HeraldKit
        /// extension attaches the media.
        @Test func anAppRegisteredThroughHeraldKitGetsANotificationSentThroughHeraldServe() async throws {
            let media = try await MediaServer.start()
            let serve = try await ServeFixture.start(bundleID: "com.example.chat")
            let folder = try Self.keyFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            KitService.keyFolder = folder
            KitAppDelegate.configuration = .init(
                serverURL: serve.baseURL, apiKey: serve.appKey, environment: "development", userID: "alice", tags: ["news"],
                appVersion: "2.1", keyStore: HeraldFileKeyStore(directory: folder)
            )
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(
                try AppFolders.load("Chat"), on: device, appDelegate: { KitAppDelegate() }, serviceExtension: { KitService() },
                sandbox: serve.sandboxAdminURL, environment: "development"
            )
            let token = try #require(app.deviceToken)
            // HeraldKit registers in the background: wait for the server to know the device.
            var registered: JSONValue?
            for _ in 0..<200 {
                let (status, json) = try await serve.call("GET", "/v1/devices/\(token)")
                if status == 200 { registered = json; break }
                try await Task.sleep(for: .milliseconds(20))
            }
            let device_ = try #require(registered)
            #expect(device_["userId"]?.stringValue == "alice")
            #expect(device_["appVersion"]?.stringValue == "2.1")
            #expect(device_["timeZone"]?.stringValue == TimeZone.current.identifier)

            try await device.setState(.background, app: app.bundle.bundleIdentifier)
            let (status, report) = try await serve.call("POST", "/v1/notifications?wait=true", body: """
                {"to": {"users": ["alice"]}, "message": {"title": "Parcel", "body": "It is here", "mutableContent": true,
                 "data": {"media": {"url": "\(media.baseURL)/photo", "type": "image"}}}}
                """)
            #expect(status == 200 || status == 201, "\(String(describing: report))")
            #expect(await app.waitForPushes(1))
            let shown = try #require(await device.shown.last)
            #expect(shown.content.title == "Parcel")
            #expect(shown.content.attachments.map(\.fileURL.pathExtension) == ["jpg"])

            await app.terminate()
            await serve.stop()
            await media.stop()
        }
    }
}
