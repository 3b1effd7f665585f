import Foundation
import HeraldCore
import HeraldDevice

/// The running app (UIKit's `UIApplication`), for what push notifications need: its delegate,
/// and registering for remote notifications, which on Linux gets a device token from a
/// `herald sandbox` through its admin API.
@MainActor
public class UIApplication: NSObject {
    /// Keys of the launch options (UIKit's `UIApplication.LaunchOptionsKey`).
    public struct LaunchOptionsKey: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let remoteNotification = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsRemoteNotificationKey")
    }

    /// Whether the app is on screen (UIKit's `UIApplication.State`).
    public enum State: Int, Sendable {
        case active = 0
        case inactive = 1
        case background = 2
    }

    nonisolated(unsafe) weak var runtime: AppRuntime?
    /// Held strongly here (UIKit holds it weakly, but the app's `main` keeps it alive).
    public var delegate: (any UIApplicationDelegate)?
    public private(set) var isRegisteredForRemoteNotifications = false

    nonisolated init(runtime: AppRuntime?) {
        self.runtime = runtime
        super.init()
    }

    /// The app whose code is running (see ``SimulatedApp``).
    public static var shared: UIApplication {
        AppRuntime.running?.application ?? UIApplication(runtime: nil)
    }

    /// Asks APNs (the sandbox) for a device token; the delegate gets it in
    /// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`, or the reason in
    /// `application(_:didFailToRegisterForRemoteNotificationsWithError:)`.
    public func registerForRemoteNotifications() {
        guard let runtime else { return }
        runtime.track { await self.register(runtime) }
    }

    public func unregisterForRemoteNotifications() {
        isRegisteredForRemoteNotifications = false
        runtime?.stopPushes()
    }

    private func register(_ runtime: AppRuntime) async {
        let result = await runtime.registerForPushes()
        let probe = CallProbe()
        switch result {
        case .success(let token):
            isRegisteredForRemoteNotifications = true
            let data = Data((try? DeviceToken(parsing: token))?.bytes ?? [])
            await runtime.run { await probe.run { delegate?.application(self, didRegisterForRemoteNotificationsWithDeviceToken: data) } }
            if delegate == nil || !probe.wasImplemented {
                await runtime.note("the app delegate does not implement application(_:didRegisterForRemoteNotificationsWithDeviceToken:), so the token goes nowhere",
                                   details: ["call": "didRegisterForRemoteNotifications", "implemented": "false"])
            } else {
                await runtime.note("application(_:didRegisterForRemoteNotificationsWithDeviceToken:) called with \(data.count) bytes",
                                   details: ["call": "didRegisterForRemoteNotifications", "token": token])
            }
        case .failure(let error):
            await runtime.run { await probe.run { delegate?.application(self, didFailToRegisterForRemoteNotificationsWithError: error) } }
            await runtime.note("registration failed: \(error.localizedDescription)" + (probe.wasImplemented && delegate != nil
                                ? "; application(_:didFailToRegisterForRemoteNotificationsWithError:) called" : "; the app delegate does not implement the failure callback"),
                               details: ["call": "didFailToRegisterForRemoteNotifications"])
        }
    }

    /// A background push for the app delegate; false when it does not implement the method.
    nonisolated func deliverRemoteNotification(_ userInfo: JSONObject, runtime: AppRuntime) async -> Bool {
        let probe = CallProbe()
        let info = UncheckedBox(PropertyListBridge.userInfo(userInfo))
        let result: UIBackgroundFetchResult?? = await runtime.run {
            await probe.run {
                await CompletionWaiter.wait(timeout: runtime.callbackTimeout) { (done: @escaping @Sendable (UIBackgroundFetchResult?) -> Void) in
                    Task { @MainActor in
                        guard let delegate = self.delegate else { return done(nil) }
                        delegate.application(self, didReceiveRemoteNotification: info.value, fetchCompletionHandler: { done($0) })
                    }
                }
            }
        }
        guard probe.wasImplemented else { return false }
        switch result {
        case nil:
            await runtime.note("application(_:didReceiveRemoteNotification:fetchCompletionHandler:) did not call its completion handler within \(runtime.callbackTimeout); iOS would stop waking the app this often",
                               details: ["call": "fetchCompletionHandler", "completion": "missing"])
        case .some(nil):
            return false
        case .some(let answer?):
            await runtime.note("the background fetch completed with \(answer)", details: ["call": "fetchCompletionHandler", "result": "\(answer)"])
        }
        return true
    }
}
