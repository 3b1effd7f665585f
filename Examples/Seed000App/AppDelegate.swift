// Seed 000's app delegate, ported from Objective-C to Swift: at launch it becomes the
// notification center's delegate, asks for badge, sound, alert and CarPlay, registers for remote
// notifications once allowed, and logs every callback. What it heard is kept in `received`, so
// tests (and a curious developer) can read it back.

#if canImport(UIKit)
import UIKit
#endif
#if canImport(UserNotifications)
import UserNotifications
#else
import HeraldUserNotifications
#endif

class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
    /// The device token as hex, once registered.
    private(set) var deviceToken: String?
    /// One line per callback, in order.
    private(set) var received: [String] = []

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        registerRemoteNotifications()
        return true
    }

    func registerRemoteNotifications() {
        let center = UNUserNotificationCenter.current()
        center.delegate = self
        center.requestAuthorization(options: [.badge, .sound, .alert, .carPlay]) { granted, error in
            if error == nil {
                NSLog("request authorization succeeded!")
                DispatchQueue.main.async {
                    UIApplication.shared.registerForRemoteNotifications()
                }
            } else {
                NSLog("request authorization failed!")
            }
        }
    }

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        let token = deviceToken.map { String(format: "%02x", $0) }.joined()
        self.deviceToken = token
        received.append("token \(token)")
        NSLog("DeviceToken: %@", token)
    }

    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: Error) {
        received.append("registration failed: \(error.localizedDescription)")
        NSLog("didFailToRegisterForRemoteNotificationsWithError: %@", error.localizedDescription)
    }

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        received.append("didReceiveRemoteNotification \(userInfo["msgid"] ?? "")")
        completionHandler(.newData)
    }

    // MARK: UNUserNotificationCenterDelegate

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        received.append("willPresent \(notification.request.identifier)")
        completionHandler([.badge, .sound, .banner, .list])
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        var line = "didReceive \(response.actionIdentifier)"
        if let textResponse = response as? UNTextInputNotificationResponse {
            line += " text \(textResponse.userText)"
        }
        received.append(line)
        completionHandler()
    }
}
