import Foundation
import HeraldCore
import HeraldDevice
import HeraldUserNotifications
import Testing

/// A VoIP app's own code: it registers a PKPushRegistry for `.voIP` at launch and, when a VoIP
/// push arrives, reports the call to CallKit (or forgets to), as on iOS.
@MainActor
final class CallingAppDelegate: UIResponder, UIApplicationDelegate, PKPushRegistryDelegate {
    let reportsCalls: Bool
    var registry: PKPushRegistry?
    let provider = CXProvider(configuration: CXProviderConfiguration())
    nonisolated(unsafe) static var tokens: [String: Data] = [:]

    init(reportsCalls: Bool) {
        self.reportsCalls = reportsCalls
        super.init()
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let registry = PKPushRegistry(queue: nil)
        registry.delegate = self
        registry.desiredPushTypes = [.voIP]
        self.registry = registry
        return true
    }

    nonisolated func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {
        Self.tokens[reportsCalls ? "reports" : "forgets"] = pushCredentials.token
    }

    nonisolated func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
                                  completion: @escaping @Sendable () -> Void) {
        guard reportsCalls else { return completion() }
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: payload.dictionaryPayload["caller"] as? String ?? "?")
        MainActor.assumeIsolated {
            provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
        }
    }
}

extension AppCodeTests {
    @Suite struct PushKitTests {
        @Test func aVoIPPushReachesPushKitAndTheCallKitRuleIsApplied() async throws {
            let device = SimulatedDevice()
            let good = try await SimulatedApp.launch(AppBundle(bundleIdentifier: "com.example.phone"), on: device, settings: .granted,
                                                     appDelegate: { CallingAppDelegate(reportsCalls: true) })
            await good.settle()
            #expect(CallingAppDelegate.tokens["reports"]?.count == 32)
            try await device.setState(.notRunning, app: "com.example.phone")
            _ = try await good.receive(try Payload(decoding: #"{"aps":{},"caller":"Alice"}"#), headers: PushHeaders(pushType: .voip))
            let transcript = await device.transcript
            let kit = try #require(transcript.last { $0.kind == .pushKit })
            #expect(kit.details["reported-call"] == "true", "\(transcript.map(\.description))")
            #expect(transcript.contains { $0.kind == .appCode && $0.message.contains("the call screen shows Alice") })
            #expect(transcript.contains { $0.kind == .appLaunched && $0.app == "com.example.phone" })
            #expect(await device.shown.isEmpty)

            let bad = try await SimulatedApp.launch(AppBundle(bundleIdentifier: "com.example.forgetful"), on: device, settings: .granted,
                                                    appDelegate: { CallingAppDelegate(reportsCalls: false) })
            await bad.settle()
            _ = try await bad.receive(try Payload(decoding: #"{"aps":{},"caller":"Bob"}"#), headers: PushHeaders(pushType: .voip))
            let after = await device.transcript
            #expect(after.last { $0.kind == .pushKit }?.details["reported-call"] == "false")
            #expect(after.last?.kind == .appTerminated, "\(after.map(\.description))")
        }
    }
}
