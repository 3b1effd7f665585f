import HeraldCore
import HeraldDevice

/// The device's side of an app's code: turns the device's calls into the app's
/// `UNUserNotificationCenterDelegate` and `UIApplicationDelegate` methods and waits (bounded) for
/// their completion handlers. Installed for the app's whole run; the center's delegate is read
/// at each call, as iOS does.
struct DelegateBridge: NotificationDelegate {
    let center: UNUserNotificationCenter
    let app: WeakRuntime

    func willPresent(_ notification: DeliveredNotification) async -> PresentationOptions? {
        guard let runtime = app.value else { return nil }
        guard let delegate = center.delegate else {
            await runtime.note("UNUserNotificationCenter has no delegate, so nothing answers willPresent",
                               notification: notification.identifier, details: ["call": "willPresent", "delegate": "none"])
            return nil
        }
        let appDelegate = UncheckedBox(delegate)
        let probe = CallProbe()
        let value = UNNotification(device: notification, app: runtime.bundle)
        let center = center
        let answer: UNNotificationPresentationOptions? = await runtime.run {
            await probe.run {
                await CompletionWaiter.wait(timeout: runtime.callbackTimeout) { done in
                    // iOS calls the delegate on the main queue.
                    Task { @MainActor in appDelegate.value.userNotificationCenter(center, willPresent: value, withCompletionHandler: done) }
                }
            }
        }
        guard probe.wasImplemented else { return nil }
        guard let answer else {
            await runtime.note("willPresent did not call its completion handler within \(runtime.callbackTimeout); iOS shows nothing",
                               notification: notification.identifier, details: ["call": "willPresent", "completion": "missing"])
            return []
        }
        return answer.deviceOptions
    }

    func didReceive(_ response: NotificationResponse) async -> Bool {
        guard let runtime = app.value else { return false }
        guard let delegate = center.delegate else { return false }
        let appDelegate = UncheckedBox(delegate)
        let probe = CallProbe()
        let value = UNNotificationResponse.make(device: response, app: runtime.bundle)
        let center = center
        let completed: Void? = await runtime.run {
            await probe.run {
                await CompletionWaiter.wait(timeout: runtime.callbackTimeout) { done in
                    Task { @MainActor in appDelegate.value.userNotificationCenter(center, didReceive: value, withCompletionHandler: { done(()) }) }
                }
            }
        }
        guard probe.wasImplemented else { return false }
        if completed == nil {
            await runtime.note("didReceive did not call its completion handler within \(runtime.callbackTimeout)",
                               notification: response.notification.identifier, details: ["call": "didReceive", "completion": "missing"])
        }
        return true
    }

    func didReceiveRemoteNotification(_ userInfo: JSONObject) async -> Bool {
        guard let runtime = app.value else { return false }
        return await runtime.application.deliverRemoteNotification(userInfo, runtime: runtime)
    }
}
