import Foundation

/// The app's answers to the notification center (Apple's `UNUserNotificationCenterDelegate`).
///
/// Every method is optional, as on iOS: implement the completion-handler form or the `async`
/// one. What is not implemented behaves as on iOS: without `willPresent` a notification that
/// arrives in the foreground is not shown; without `didReceive` the user's action is lost.
public protocol UNUserNotificationCenterDelegate: NSObjectProtocol {
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    )
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void
    )
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async
    func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?)
}

extension UNUserNotificationCenterDelegate {
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) {
        let delegate = UncheckedBox(self as any UNUserNotificationCenterDelegate)
        Task { completionHandler(await delegate.value.userNotificationCenter(center, willPresent: notification)) }
    }

    public func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions {
        CallProbe.markUnimplemented()
        return []
    }

    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void
    ) {
        let delegate = UncheckedBox(self as any UNUserNotificationCenterDelegate)
        Task {
            await delegate.value.userNotificationCenter(center, didReceive: response)
            completionHandler()
        }
    }

    public func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        CallProbe.markUnimplemented()
    }

    public func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?) {
        CallProbe.markUnimplemented()
    }
}
