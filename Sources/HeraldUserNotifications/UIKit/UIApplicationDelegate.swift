import Foundation

/// An object in the app's responder chain (UIKit's `UIResponder`); the app delegate's usual
/// superclass.
@MainActor
open class UIResponder: NSObject {
    public override init() {
        super.init()
    }
}

/// What the app answers to a background push (UIKit's `UIBackgroundFetchResult`).
public enum UIBackgroundFetchResult: UInt, Sendable {
    case newData = 0
    case noData = 1
    case failed = 2
}

/// The app's delegate, for the parts of UIKit's `UIApplicationDelegate` that push
/// notifications use: launch, remote registration and background pushes. Every method is
/// optional, as on iOS.
@MainActor
public protocol UIApplicationDelegate: NSObjectProtocol {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool
    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data)
    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error)
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    )
    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]) async -> UIBackgroundFetchResult
}

extension UIApplicationDelegate {
    public func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        true
    }

    public func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        CallProbe.markUnimplemented()
    }

    public func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {
        CallProbe.markUnimplemented()
    }

    public func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        let info = UncheckedBox(userInfo)
        let handler = UncheckedBox(completionHandler)
        Task { @MainActor in handler.value(await self.application(application, didReceiveRemoteNotification: info.value)) }
    }

    public func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]) async -> UIBackgroundFetchResult {
        CallProbe.markUnimplemented()
        return .noData
    }
}
