import Foundation
import HeraldCore
import HeraldDevice
import HeraldUserNotifications
import Testing
@testable import XcodeTemplateNotificationService

extension AppCodeTests {
    /// Xcode's service-extension template, compiled unchanged, runs in the simulated device.
    @Suite struct XcodeTemplateTests {
        static let push = #"{"aps":{"alert":{"title":"Hello","body":"from the server"},"mutable-content":1}}"#

        @Test func theTemplateRewritesTheTitleBeforeTheBannerIsShown() async throws {
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(try AppFolders.load("QiShare"), on: device, settings: .granted,
                                                    serviceExtension: { NotificationService() })
            try await device.setState(.background, app: app.bundle.bundleIdentifier)
            let identifier = try await app.receive(try Payload(decoding: Self.push))

            let shown = try #require(await device.shownNotification(identifier))
            #expect(shown.content.title == "Hello [modified]")
            #expect(shown.content.body == "from the server")
            let logs = await device.events(.extensionLog).map(\.message)
            #expect(logs.contains("NotificationService.didReceive(_:withContentHandler:) called"))
            #expect(await device.events(.extensionFinished).count == 1)
        }

        @Test func withoutMutableContentTheTemplateDoesNotRun() async throws {
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(try AppFolders.load("QiShare"), on: device, settings: .granted,
                                                    serviceExtension: { NotificationService() })
            try await device.setState(.background, app: app.bundle.bundleIdentifier)
            let identifier = try await app.receive(try Payload(decoding: #"{"aps":{"alert":{"title":"Hello","body":"b"}}}"#))
            #expect(await device.shownNotification(identifier)?.content.title == "Hello")
            #expect(await device.events(.extensionLog).isEmpty)
        }
    }
}
