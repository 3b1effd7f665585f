import HeraldDevice

/// Runs an app's own content extension in the simulated device: a new view controller each time
/// a notification is expanded, which then gets the actions tapped while it is shown.
final class ContentExtensionBridge: NotificationContentExtension, @unchecked Sendable {
    let make: () -> any UNNotificationContentExtension
    let app: WeakRuntime
    /// The view controller of the expanded notification.
    private var shown: (identifier: String, controller: any UNNotificationContentExtension)?
    private let lock = NSLock()

    init(make: @escaping () -> any UNNotificationContentExtension, runtime: AppRuntime) {
        self.make = make
        self.app = WeakRuntime(runtime)
    }

    func didReceive(_ notification: DeliveredNotification) async {
        guard let runtime = app.value else { return }
        let controller = make()
        lock.withLock { shown = (notification.identifier, controller) }
        let value = UNNotification(device: notification, app: runtime.bundle)
        await runtime.run { controller.didReceive(value) }
    }

    func didReceive(_ response: NotificationResponse) async -> ContentExtensionAnswer? {
        guard let runtime = app.value else { return nil }
        let controller = lock.withLock { shown?.identifier == response.notification.identifier ? shown?.controller : nil } ?? make()
        let box = UncheckedBox(controller)
        let probe = CallProbe()
        let value = UNNotificationResponse.make(device: response, app: runtime.bundle)
        let answer: UNNotificationContentExtensionResponseOption? = await runtime.run {
            await probe.run {
                await CompletionWaiter.wait(timeout: runtime.callbackTimeout) { done in
                    box.value.didReceive(value, completionHandler: done)
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

import Foundation
