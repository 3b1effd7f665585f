import Crypto
import Foundation
import HeraldCore
@testable import HeraldDevice
import HeraldShippedExtensions
import Testing

/// An extension that never returns and never answers.
struct HangingExtension: NotificationServiceExtension {
    var name: String { "hangs" }
    func didReceive(_ context: ServiceExtensionContext) async {
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
    }
    func serviceExtensionTimeWillExpire(_ context: ServiceExtensionContext) {
        context.updateBestAttempt { $0.title = "best attempt" }
        context.contentHandler(context.bestAttemptContent)
    }
}

@Suite struct DeviceModelTests {
    static let apps = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios/apps")

    @Test func anAppFolderIsReadWithXMLBinaryAndStringsPlists() throws {
        let app = try AppBundle.load(from: Self.apps.appendingPathComponent("QiShare"))
        #expect(app.bundleIdentifier == "com.qishare.demo" && app.displayName == "QiShare")
        #expect(app.entitlements["aps-environment"] == .string("development"))
        #expect(app.localizedString("TITLELOCKEY") == "Title with %@ and %@")
        #expect(app.localizedString("TITLELOCKEY", languages: ["zh-Hans"]) == "标题 %@ %@")
        #expect(app.resources.contains("sound01.wav"))
        #expect(app.serviceExtension?.name == "NotificationService")
        let content = try #require(app.contentExtensions.first)
        let read = ContentExtensionConfiguration.read(content)
        #expect(read.problems.isEmpty)
        #expect(read.configuration?.categories == ["QiShareCategoryIdentifier"] && read.configuration?.initialContentSizeRatio == 0.6)
    }

    @Test func aFolderWithoutInfoPlistOrBundleIDIsRefusedClearly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(throws: AppBundleError.missing("the app folder \(folder.path) has no Info.plist")) { try AppBundle.load(from: folder) }
        try Data("not a plist".utf8).write(to: folder.appendingPathComponent("Info.plist"))
        #expect { try AppBundle.load(from: folder) } throws: { "\($0)".contains("is not a property list") }
        try Data("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>".utf8).write(to: folder.appendingPathComponent("Info.plist"))
        #expect { try AppBundle.load(from: folder) } throws: { "\($0)".contains("no CFBundleIdentifier") }
    }

    @Test func contentExtensionRatiosOutsideZeroToOneAreReported() {
        func bundle(_ ratio: PropertyListValue) -> AppExtensionBundle {
            AppExtensionBundle(name: "C", kind: .notificationContent, infoPlist: ["NSExtension": .dictionary([
                "NSExtensionPointIdentifier": .string(AppExtensionBundle.Kind.contentIdentifier),
                "NSExtensionPrincipalClass": .string("C"),
                "NSExtensionAttributes": .dictionary(["UNNotificationExtensionCategory": .string("c"), "UNNotificationExtensionInitialContentSizeRatio": ratio]),
            ])])
        }
        #expect(ContentExtensionConfiguration.read(bundle(.real(1.5))).problems.map(\.severity) == [.warning])
        #expect(ContentExtensionConfiguration.read(bundle(.real(1.5))).configuration != nil)
        #expect(ContentExtensionConfiguration.read(bundle(.integer(0))).configuration == nil)
        #expect(ContentExtensionConfiguration.read(bundle(.real(0.5))).problems.isEmpty)
    }

    @Test func locArgsFillTheirPlaces() {
        #expect(RemoteContent.format("%@ and %@", ["a", "b"]) == "a and b")
        #expect(RemoteContent.format("%2$@ before %1$@", ["a", "b"]) == "b before a")
        #expect(RemoteContent.format("100%% %@", ["sure"]) == "100% sure")
        #expect(RemoteContent.format("%@ %@", ["only"]) == "only ")
    }

    @Test func anExtensionThatNeverReturnsIsGivenUpOnAndItsBestAttemptShown() async throws {
        let device = SimulatedDevice(extensionRealTimeLimit: .milliseconds(200))
        await device.install(AppBundle(bundleIdentifier: "com.example.hang"), state: .background, serviceExtension: HangingExtension())
        let id = try await device.receive(Payload.alert(title: "T", body: "B").mutableContent(), app: "com.example.hang")
        #expect(await device.shownNotification(id)?.content.title == "best attempt")
        #expect(await device.transcript.contains { $0.kind == .extensionTimeWillExpire })
    }

    @Test func theDecryptStepOpensTheSealedAlertAndKeepsTheFallbackOnAWrongKey() async throws {
        let key = Curve25519.KeyAgreement.PrivateKey()
        let sealed = try SealedAlert(title: "Bank", body: "You received ¥100").seal(to: key.publicKey)
        var payload = Payload.alert(title: "New message", body: "(encrypted)").mutableContent()
        payload[custom: SealedAlert.payloadKey] = .string(sealed)
        let device = SimulatedDevice()
        let shipped = ShippedExtensions()
        for (app, privateKey) in [("com.example.bank", key), ("com.example.wrong", Curve25519.KeyAgreement.PrivateKey())] {
            let bundle = AppBundle(bundleIdentifier: app)
            let recipe = ServiceExtensionRecipe(steps: [.decrypt(privateKey: privateKey.rawRepresentation)])
            await device.install(bundle, state: .background, serviceExtension: shipped.serviceExtension(for: recipe, app: bundle))
        }
        let right = try await device.receive(payload, app: "com.example.bank")
        #expect(await device.shownNotification(right)?.content.body == "You received ¥100")
        #expect(await device.shownNotification(right)?.content.title == "Bank")
        let wrong = try await device.receive(payload, app: "com.example.wrong")
        #expect(await device.shownNotification(wrong)?.content.body == "(encrypted)")
        #expect(await device.transcript.contains { $0.kind == .extensionLog && $0.message.contains("does not open with this device's key") })
    }

    @Test func bannersTruncateTheBodyToFourLinesAndCountCJKAsWide() throws {
        let long = String(repeating: "word ", count: 60)
        let lines = BannerLayout.truncate(long, lines: 4)
        #expect(lines.count == 4 && lines.last?.hasSuffix("…") == true)
        #expect(lines.allSatisfy { BannerLayout.displayWidth($0) <= BannerLayout.columns })
        #expect(BannerLayout.truncate(String(repeating: "测", count: 20), lines: 1) == [String(repeating: "测", count: 20)])
        #expect(BannerLayout.truncate(String(repeating: "测", count: 21), lines: 1).first?.hasSuffix("…") == true)
    }
}
