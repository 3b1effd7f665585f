import Foundation
import HeraldDevice

/// Runs an app's own content extension in the simulated device: a new view controller each time
/// a notification is expanded (its view loaded first, as iOS does), which then gets the actions
/// tapped while it is shown. What its view shows is written to the transcript.
final class ContentExtensionBridge: NotificationContentExtension, @unchecked Sendable {
    let make: @MainActor @Sendable () -> any UNNotificationContentExtension
    let app: WeakRuntime
    /// The view controller of the expanded notification.
    private var shown: (identifier: String, controller: UncheckedBox<any UNNotificationContentExtension>)?
    private let lock = NSLock()

    init(make: @escaping @MainActor @Sendable () -> any UNNotificationContentExtension, runtime: AppRuntime) {
        self.make = make
        self.app = WeakRuntime(runtime)
    }

    func didReceive(_ notification: DeliveredNotification) async {
        guard let runtime = app.value else { return }
        let value = UNNotification(device: notification, app: runtime.bundle)
        let make = make
        let (controller, contents) = await runtime.run { () async -> (UncheckedBox<any UNNotificationContentExtension>, [String]) in
            await MainActor.run {
                let controller = make()
                (controller as? UIViewController)?.loadViewIfNeeded()
                controller.didReceive(value)
                let contents = (controller as? UIViewController)?.view.describeContents() ?? []
                return (UncheckedBox(controller), contents)
            }
        }
        lock.withLock { shown = (notification.identifier, controller) }
        await runtime.note("the content extension shows " + (contents.isEmpty ? "nothing the simulator can read" : contents.joined(separator: "; ")),
                           notification: notification.identifier, details: ["call": "content-extension-didReceive", "view": contents.joined(separator: "\n")])
    }

    func didReceive(_ response: NotificationResponse) async -> ContentExtensionAnswer? {
        guard let runtime = app.value else { return nil }
        let existing = lock.withLock { shown?.identifier == response.notification.identifier ? shown?.controller : nil }
        let make = make
        let probe = CallProbe()
        let value = UNNotificationResponse.make(device: response, app: runtime.bundle)
        let answer: UNNotificationContentExtensionResponseOption? = await runtime.run {
            await probe.run {
                await CompletionWaiter.wait(timeout: runtime.callbackTimeout) { done in
                    Task { @MainActor in
                        let controller = existing?.value ?? make()
                        controller.didReceive(value, completionHandler: done)
                    }
                }
            }
        }
        guard probe.wasImplemented else { return nil }
        switch answer {
        case .doNotDismiss?: return .doNotDismiss
        case .dismiss?: return .dismiss
        case .dismissAndForwardAction?: return .dismissAndForward
        case nil:
            await runtime.note("the content extension did not call its completion handler within \(runtime.callbackTimeout); the notification stays",
                               notification: response.notification.identifier, details: ["call": "content-extension-didReceive", "completion": "missing"])
            return .doNotDismiss
        }
    }
}
