import Foundation
import HeraldDevice

/// Runs an app's own content extension in the simulated device: a new view controller each time
/// a notification is expanded (its view loaded first, as iOS does), which then gets the actions
/// tapped while it is shown. What its view shows is written to the transcript.
final class ContentExtensionBridge: NotificationContentExtension, @unchecked Sendable {
    let make: @MainActor @Sendable () -> any UNNotificationContentExtension
    let app: WeakRuntime
    /// The view controllers of expanded notifications, by notification identifier (the latest
    /// few: a controller's notification may be gone without the extension being told).
    private var controllers: [(identifier: String, controller: UncheckedBox<any UNNotificationContentExtension>)] = []
    private let lock = NSLock()
    static let keptControllers = 16

    init(make: @escaping @MainActor @Sendable () -> any UNNotificationContentExtension, runtime: AppRuntime) {
        self.make = make
        self.app = WeakRuntime(runtime)
    }

    func didReceive(_ notification: DeliveredNotification) async {
        guard let runtime = app.value else { return }
        let (controller, contents) = await show(notification, runtime: runtime)
        remember(controller, for: notification.identifier)
        await runtime.note("the content extension shows " + (contents.isEmpty ? "nothing the simulator can read" : contents.joined(separator: "; ")),
                           notification: notification.identifier, details: ["call": "content-extension-didReceive", "view": contents.joined(separator: "\n")])
    }

    /// Makes a controller, loads its view and gives it the notification; returns what it shows.
    private func show(_ notification: DeliveredNotification, runtime: AppRuntime) async -> (controller: UncheckedBox<any UNNotificationContentExtension>, contents: [String]) {
        let value = UNNotification(device: notification, app: runtime.bundle)
        let make = make
        return await runtime.run { () async -> (UncheckedBox<any UNNotificationContentExtension>, [String]) in
            await MainActor.run {
                let controller = make()
                (controller as? UIViewController)?.loadViewIfNeeded()
                controller.didReceive(value)
                let contents = (controller as? UIViewController)?.view.describeContents() ?? []
                return (UncheckedBox(controller), contents)
            }
        }
    }

    private func remember(_ controller: UncheckedBox<any UNNotificationContentExtension>, for identifier: String) {
        lock.withLock {
            controllers.removeAll { $0.identifier == identifier }
            controllers.append((identifier, controller))
            if controllers.count > Self.keptControllers { controllers.removeFirst() }
        }
    }

    func title(for notification: DeliveredNotification) async -> String? {
        guard let controller = lock.withLock({ controllers.last { $0.identifier == notification.identifier }?.controller }) else { return nil }
        return await MainActor.run { (controller.value as? UIViewController)?.title }
    }

    func didReceive(_ response: NotificationResponse) async -> ContentExtensionAnswer? {
        guard let runtime = app.value else { return nil }
        var existing = lock.withLock { controllers.last { $0.identifier == response.notification.identifier }?.controller }
        if existing == nil {
            // Not expanded through the device (or forgotten): iOS loads the view and shows the
            // notification before the action reaches the controller.
            existing = await show(response.notification, runtime: runtime).controller
            remember(existing!, for: response.notification.identifier)
        }
        let controller = existing!
        let probe = CallProbe()
        let value = UNNotificationResponse.make(device: response, app: runtime.bundle)
        let answer: UNNotificationContentExtensionResponseOption? = await runtime.run {
            await probe.run {
                await CompletionWaiter.wait(timeout: runtime.callbackTimeout) { done in
                    Task { @MainActor in controller.value.didReceive(value, completionHandler: done) }
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
