import Foundation
import HeraldCore
import HeraldDevice
@testable import HeraldUserNotifications
import Synchronization
import Testing

extension AppCodeTests {
    /// The notification center's API on the simulated device: iOS's rules hold for calls made by
    /// app code, in the order the app made them, and the answers come back in Apple's types.
    @Suite struct CenterTests {
        static func launch(_ device: SimulatedDevice, settings: NotificationSettings = .granted) async throws -> SimulatedApp {
            try await SimulatedApp.launch(AppBundle(bundleIdentifier: "com.example.center"), on: device, settings: settings)
        }

        static func request(_ id: String, after seconds: TimeInterval, repeats: Bool = false) -> UNNotificationRequest {
            let content = UNMutableNotificationContent()
            content.title = id
            content.body = "body of \(id)"
            return UNNotificationRequest(identifier: id, content: content,
                                         trigger: UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: repeats))
        }

        @Test func callsRunInTheOrderTheAppMadeThem() async throws {
            let device = SimulatedDevice()
            let app = try await Self.launch(device)
            let center = app.notificationCenter
            try await app.run {
                center.add(Self.request("a", after: 60))
                center.add(Self.request("b", after: 60))
                center.removePendingNotificationRequests(withIdentifiers: ["a"])
                center.add(Self.request("a", after: 120))
                center.removeAllPendingNotificationRequests()
                center.add(Self.request("c", after: 30))
            }
            #expect(await center.pendingNotificationRequests().map(\.identifier) == ["c"])
        }

        @Test func aRepeatingIntervalUnderAMinuteAndTheSixtyFifthRequestFollowIOSRules() async throws {
            let device = SimulatedDevice()
            let app = try await Self.launch(device)
            let center = app.notificationCenter
            do {
                try await center.add(Self.request("fast", after: 30, repeats: true))
                Issue.record("a repeating 30 s interval was accepted")
            } catch let error as UNError {
                #expect(error.message.contains("at least 60 seconds"))
            }
            for index in 0..<65 { try await center.add(Self.request("r\(index)", after: TimeInterval(100 + index))) }
            let pending = await center.pendingNotificationRequests()
            #expect(pending.count == 64)
            #expect(!pending.map(\.identifier).contains("r64"))
            #expect(await device.events(.localDropped).map(\.notification) == ["r64"])
        }

        @Test func authorizationIsAskedOnceAndTheSettingsSayWhatWasGranted() async throws {
            let device = SimulatedDevice()
            let app = try await SimulatedApp.launch(AppBundle(bundleIdentifier: "com.example.ask"), on: device, userAllowsNotifications: false)
            let center = app.notificationCenter
            #expect(await center.notificationSettings().authorizationStatus == .notDetermined)
            #expect(try await center.requestAuthorization(options: [.alert, .badge]) == false)
            let settings = await center.notificationSettings()
            #expect(settings.authorizationStatus == .denied)
            #expect(settings.alertSetting == .disabled && settings.soundSetting == .notSupported)
            #expect(try await center.requestAuthorization(options: [.alert]) == false)
            #expect(await device.events(.authorization).filter { $0.message.hasPrefix("authorization ") }.count == 1)
            #expect(await device.events(.appCode).contains { $0.message.contains("the user is not asked again") })
            await #expect(throws: UNError.self) { try await center.add(Self.request("x", after: 5)) }
        }

        @Test func categoriesBadgeAndDeliveredNotificationsRoundTrip() async throws {
            let device = SimulatedDevice()
            let app = try await Self.launch(device)
            let center = app.notificationCenter
            let reply = UNTextInputNotificationAction(identifier: "reply", title: "Reply", options: [], textInputButtonTitle: "Send", textInputPlaceholder: "…")
            let category = UNNotificationCategory(identifier: "chat", actions: [reply], intentIdentifiers: [], options: [.customDismissAction])
            center.setNotificationCategories([category])
            let categories = await center.notificationCategories()
            #expect(categories.map(\.identifier) == ["chat"])
            #expect((categories.first?.actions.first as? UNTextInputNotificationAction)?.textInputButtonTitle == "Send")

            try await center.setBadgeCount(3)
            #expect(try await device.badge(app.bundle.bundleIdentifier) == 3)
            await #expect(throws: UNError.self) { try await center.setBadgeCount(-1) }

            try await device.setState(.background, app: app.bundle.bundleIdentifier)
            let content = UNMutableNotificationContent()
            content.title = "now"
            content.categoryIdentifier = "chat"
            content.userInfo = ["order": 42, "when": Date(timeIntervalSince1970: 0), "bytes": Data([1, 2, 3])]
            try await center.add(UNNotificationRequest(identifier: "now", content: content, trigger: nil))
            let delivered = await center.deliveredNotifications()
            #expect(delivered.map(\.request.identifier) == ["now"])
            let info = try #require(delivered.first?.request.content.userInfo)
            #expect(info["order"] as? Int == 42)
            #expect(info["when"] as? Date == Date(timeIntervalSince1970: 0))
            #expect(info["bytes"] as? Data == Data([1, 2, 3]))
            center.removeAllDeliveredNotifications()
            #expect(await center.deliveredNotifications().isEmpty)
        }

        @Test func aMutableCopyIsIndependentAndCopiesKeepTheirClass() throws {
            let content = UNMutableNotificationContent()
            content.title = "first"
            let request = UNNotificationRequest(identifier: "r", content: content, trigger: nil)
            content.title = "changed after"
            #expect(request.content.title == "first")
            let copy = try #require(request.content.mutableCopy() as? UNMutableNotificationContent)
            copy.title = "edited"
            #expect(request.content.title == "first")
            #expect(!(content.copy() is UNMutableNotificationContent))
        }

        @Test func aDelegateThatCallsTheCenterWhileANotificationIsPresentedIsNotStuck() async throws {
            let device = SimulatedDevice()
            let delegate = BusyDelegate()
            let app = try await SimulatedApp.launch(AppBundle(bundleIdentifier: "com.example.busy"), on: device, settings: .granted,
                                                    callbackTimeout: .seconds(3))
            let center = app.notificationCenter
            center.delegate = delegate
            let started = ContinuousClock.now
            // Delivered at once, in the foreground: willPresent runs inside the add, and calls the center.
            try await center.add(UNNotificationRequest(identifier: "now", content: Self.request("now", after: 1).content, trigger: nil))
            #expect(ContinuousClock.now - started < .seconds(2))
            #expect(await device.shown.map(\.identifier) == ["now"])
            #expect(try await device.badge(app.bundle.bundleIdentifier) == 7)
            _ = delegate
        }

        @Test func whatTheAppDoesWhenOneFiresCountsForTheRestOfTheAdvance() async throws {
            let device = SimulatedDevice()
            let delegate = BusyDelegate()
            let app = try await Self.launch(device)
            let center = app.notificationCenter
            center.delegate = delegate
            try await center.add(Self.request("reminder", after: 60))
            try await center.add(Self.request("escalation", after: 120))
            await device.advance(by: 180)
            await app.settle()
            // Its willPresent for the reminder removed the escalation.
            #expect(await device.events(.localFired).map(\.notification) == ["reminder"])
            _ = delegate
        }

        @Test func aGetterAnswersWithWhatWasThereWhenItWasCalled() async throws {
            let device = SimulatedDevice()
            let app = try await Self.launch(device)
            let center = app.notificationCenter
            try await center.add(Self.request("a", after: 60))
            let counted = Mutex<Int?>(nil)
            try await app.run {
                center.getPendingNotificationRequests { requests in counted.withLock { $0 = requests.count } }
                center.removeAllPendingNotificationRequests()
            }
            #expect(counted.withLock { $0 } == 1)
        }

        @Test func onlyValuesTheAppWroteComeBackAsDataOrDates() throws {
            let when = Date(timeIntervalSince1970: 1.5)
            let json = PropertyListBridge.json(["d": Data([1, 2]), "s": "AQI=", "nested": ["when": when, "list": [Data([3])]]])
            let back = PropertyListBridge.userInfo(json)
            #expect(back["d"] as? Data == Data([1, 2]))
            #expect(back["s"] as? String == "AQI=")
            let nested = try #require(back["nested"] as? [AnyHashable: Any])
            #expect(nested["when"] as? Date == when)
            #expect((nested["list"] as? [Any])?.first as? Data == Data([3]))
            #expect(back[PropertyListBridge.taggedKey] == nil)
            // A push payload's strings stay strings, whatever they look like.
            let remote = PropertyListBridge.userInfo(["text": .string("AQI="), "at": .string("1970-01-01T00:00:01.500Z")])
            #expect(remote["text"] as? String == "AQI=" && remote["at"] as? String == "1970-01-01T00:00:01.500Z")
        }

        @Test func aScaleOfZeroIsRefusedWithTheReason() async throws {
            do {
                _ = try await SimulatedApp.launch(AppBundle(bundleIdentifier: "com.example.scale"), on: SimulatedDevice(), extensionTimeScale: 0)
                Issue.record("a time scale of 0 was accepted")
            } catch {
                #expect("\(error)".contains("extensionTimeScale must be a number above 0"))
            }
        }

        @Test func withoutALaunchedAppTheCenterSaysSo() async throws {
            let center = UNUserNotificationCenter(runtime: nil)
            do {
                try await center.add(Self.request("x", after: 5))
                Issue.record("a detached center accepted a request")
            } catch let error as UNError {
                #expect(error.code == .notificationsNotAllowed && error.message.contains("no simulated app is running"))
            }
        }
    }
}

/// A delegate that uses the center from inside its callbacks: it sets the badge before answering
/// willPresent, and a reminder cancels the pending escalation.
final class BusyDelegate: NSObject, UNUserNotificationCenterDelegate {
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) {
        if notification.request.identifier == "reminder" {
            center.removePendingNotificationRequests(withIdentifiers: ["escalation"])
        }
        center.setBadgeCount(7) { _ in completionHandler([.banner, .list]) }
    }
}
