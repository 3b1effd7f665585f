import Crypto
import Foundation
import HeraldAPNs
import HeraldCore
import HeraldDevice
import HeraldShippedExtensions
import HeraldTestSupport
import HeraldSandbox
import NIOPosix
import Synchronization
import Testing

/// A delegate that keeps what the app was told.
final class RecordingDelegate: NotificationDelegate {
    let responses = Mutex<[NotificationResponse]>([])

    func willPresent(_ notification: DeliveredNotification) -> PresentationOptions? { [.banner, .list, .sound] }

    func didReceive(_ response: NotificationResponse) async -> Bool {
        responses.withLock { $0.append(response) }
        return true
    }
}

/// The whole path: the provider client → the sandbox over HTTP/2 and TLS → the simulated device
/// (registered through the admin API, listening to its event stream) → the service extension
/// downloads media from a local HTTP server → shown with the attachment and the category's
/// actions → the user taps an action → the app's delegate gets it.
@Suite struct EndToEndTests {
    static let appFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios/apps/QiShare")

    @Test func aPushTravelsFromTheClientToTheAppsDelegate() async throws {
        let fixture = try await SandboxFixture.start()
        let client = fixture.client
        let media = try await MediaServer.start()

        let app = try AppBundle.load(from: Self.appFolder)
        let delegate = RecordingDelegate()
        let device = SimulatedDevice(now: Date())
        let recipe = ServiceExtensionRecipe(steps: [
            .rewriteTitle(format: "%@ [modified]", subtitle: nil, body: nil),
            .downloadMedia(keyPaths: ServiceExtensionRecipe.defaultMediaKeyPaths, attachmentIdentifier: "media"),
        ])
        await device.install(app, settings: .granted, state: .notRunning, delegate: delegate,
                             serviceExtension: ShippedExtensions().serviceExtension(for: recipe, app: app))
        try await device.setCategories([NotificationCategory(identifier: "QiShareCategoryIdentifier", actions: [
            NotificationAction(identifier: "ActionC", title: "C_Foreground", options: .foreground),
            NotificationAction(identifier: "ActionD", title: "D_Input", textInput: .init(buttonTitle: "Send", placeholder: "…")),
        ])], app: app.bundleIdentifier)

        let link = try SandboxLink(adminURL: fixture.adminURL)
        let token = try await link.register(bundleID: app.bundleIdentifier, environment: "development")
        let pushes = try await link.pushes(token: token)
        let payload = try Payload(decoding: """
            {"aps":{"alert":{"title":"Parcel","body":"Your parcel is here"},"mutable-content":1,"category":"QiShareCategoryIdentifier"},\
            "media":{"url":"\(media.baseURL)/photo","type":"image"}}
            """)
        let result = await client.send(PushNotification(
            deviceToken: try DeviceToken(parsing: token), body: .payload(payload),
            headers: NotificationHeaders(pushType: .alert, topic: app.bundleIdentifier)
        ))
        #expect(result.isSuccess, "\(result)")

        var iterator = pushes.makeAsyncIterator()
        let push = try #require(try await iterator.next())
        #expect(push.bundleID == app.bundleIdentifier && push.headers.apnsID == result.apnsID)
        let identifier = try await device.receive(push.payload, app: push.bundleID, headers: push.headers)

        let shown = try #require(await device.shownNotification(identifier))
        #expect(shown.content.title == "Parcel [modified]")
        #expect(shown.content.attachments.count == 1 && shown.content.attachments.first?.kind == .image)
        #expect(try Data(contentsOf: shown.content.attachments[0].fileURL) == Data(MediaServer.jpeg))
        #expect(shown.actions.map(\.identifier) == ["ActionC", "ActionD"])

        try await device.tap(identifier, action: "ActionC")
        let responses = delegate.responses.withLock { $0 }
        #expect(responses.map(\.actionIdentifier) == ["ActionC"])
        #expect(responses.first?.notification.userInfo["media"] != nil)
        #expect(try await device.state(app.bundleIdentifier) == .foreground)

        await media.stop()
        try await fixture.stop()
    }

    /// Offline, the sandbox keeps the latest push; back online, the device gets it.
    @Test func anOfflineDeviceGetsTheStoredPushWhenItComesBack() async throws {
        let fixture = try await SandboxFixture.start()
        let client = fixture.client
        let link = try SandboxLink(adminURL: fixture.adminURL)
        let token = try await link.register(bundleID: "com.example.app", environment: "development")
        let pushes = try await link.pushes(token: token)
        try await link.setOnline(false, token: token)
        for body in ["first", "second"] {
            let result = await client.send(PushNotification(
                deviceToken: try DeviceToken(parsing: token), body: .payload(.alert(title: nil, body: body)),
                headers: NotificationHeaders(pushType: .alert, topic: "com.example.app")
            ))
            #expect(result.isSuccess, "\(result)")
        }
        try await link.setOnline(true, token: token)
        var iterator = pushes.makeAsyncIterator()
        let push = try #require(try await iterator.next())
        #expect(push.payload.aps.alert?.hasVisibleContent == true)
        #expect(push.payload.jsonString.contains("second") && !push.payload.jsonString.contains("first"))
        try await fixture.stop()
    }
}
