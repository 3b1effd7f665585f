import Foundation
import HeraldCore
import HeraldDevice
import Synchronization

/// The app's notification center (Apple's `UNUserNotificationCenter`), on a simulated device:
/// authorization, local requests, delivered notifications, categories, the badge and the
/// delegate. Every call is carried out by the device with its iOS rules, in the order the app
/// made them, and written to the device's transcript.
public class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    private weak var runtime: AppRuntime?
    private let storedDelegate = Mutex(WeakDelegate())

    private struct WeakDelegate: @unchecked Sendable {
        weak var delegate: (any UNUserNotificationCenterDelegate)?
    }

    init(runtime: AppRuntime?) {
        self.runtime = runtime
        super.init()
    }

    /// The center of the app whose code is running (see ``SimulatedApp``). Without a launched
    /// app, every call fails with `UNError.notificationsNotAllowed`, saying so.
    public class func current() -> UNUserNotificationCenter {
        AppRuntime.running?.center ?? UNUserNotificationCenter(runtime: nil)
    }

    /// Gets `willPresent` for notifications arriving in the foreground and `didReceive` for the
    /// user's actions. Held weakly, as on iOS: keep the object alive (the app delegate usually is).
    public var delegate: (any UNUserNotificationCenterDelegate)? {
        get { storedDelegate.withLock { $0.delegate } }
        set { storedDelegate.withLock { $0.delegate = newValue } }
    }

    /// Whether the device can show content extensions (it can).
    public var supportsContentExtensions: Bool { true }

    // MARK: Authorization

    /// Asks the user, the first time, to allow notifications with these options; later calls
    /// answer with the decision already made. `.provisional` is granted without asking.
    public func requestAuthorization(options: UNAuthorizationOptions = [], completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        guard let runtime else {
            completionHandler(false, Self.detachedError)
            return
        }
        runtime.queue.current.enqueue { completionHandler(await Self.authorize(options, runtime: runtime), nil) }
    }

    public func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
        let runtime = try attached()
        return await runtime.queue.current.perform { await Self.authorize(options, runtime: runtime) }
    }

    private static func authorize(_ options: UNAuthorizationOptions, runtime: AppRuntime) async -> Bool {
            let device = runtime.device
            guard let settings = try? await device.settings(runtime.id) else { return false }
            if settings.authorization != .notDetermined {
                await runtime.note("requestAuthorization: already \(settings.authorization.rawValue), the user is not asked again",
                                   details: ["call": "requestAuthorization"])
                return settings.authorization == .authorized
            }
            runtime.requestedOptions.withLock { $0 = options }
            let provisional = options.contains(.provisional)
            try? await device.requestAuthorization(runtime.id, userAllows: runtime.userAllowsNotifications, provisional: provisional)
            guard var updated = try? await device.settings(runtime.id) else { return false }
            updated.alert = options.contains(.alert) || provisional
            updated.sound = options.contains(.sound)
            updated.badge = options.contains(.badge)
            // Critical alerts need Apple's entitlement as well as the user's yes.
            updated.criticalAlert = options.contains(.criticalAlert) && updated.authorization == .authorized
                && runtime.bundle.hasEntitlement(InterruptionLevel.critical.requiredEntitlement!)
            if updated != (try? await device.settings(runtime.id)) { try? await device.setSettings(updated, app: runtime.id) }
            return updated.authorization == .authorized
    }

    public func getNotificationSettings(completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void) {
        guard let runtime else { return completionHandler(Self.detachedSettings) }
        runtime.queue.current.enqueue { completionHandler(await Self.settings(runtime)) }
    }

    public func notificationSettings() async -> UNNotificationSettings {
        guard let runtime else { return Self.detachedSettings }
        return await runtime.queue.current.perform { await Self.settings(runtime) }
    }

    private static var detachedSettings: UNNotificationSettings {
        UNNotificationSettings(device: NotificationSettings(), requested: [], app: AppBundle(bundleIdentifier: "none"))
    }

    private static func settings(_ runtime: AppRuntime) async -> UNNotificationSettings {
        let settings = (try? await runtime.device.settings(runtime.id)) ?? NotificationSettings()
        return UNNotificationSettings(device: settings, requested: runtime.requestedOptions.withLock { $0 }, app: runtime.bundle)
    }

    // MARK: Local notifications

    /// Schedules a local notification (a `nil` trigger delivers it now), replacing a pending one
    /// with the same identifier. The device refuses what iOS refuses (an invalid trigger or
    /// attachment, notifications not allowed) and passes the reason to the handler.
    public func add(_ request: UNNotificationRequest, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        let deviceRequest = request.deviceRequest
        guard let runtime else {
            completionHandler?(Self.detachedError)
            return
        }
        runtime.queue.current.enqueue {
            let error = await Self.add(deviceRequest, runtime: runtime)
            completionHandler?(error)
        }
    }

    public func add(_ request: UNNotificationRequest) async throws {
        let runtime = try attached()
        let deviceRequest = request.deviceRequest
        if let error = await runtime.queue.current.perform({ await Self.add(deviceRequest, runtime: runtime) }) { throw error }
    }

    private static func add(_ request: NotificationRequest, runtime: AppRuntime) async -> UNError? {
        do {
            try await runtime.device.add(request, app: runtime.id)
            return nil
        } catch let error as NotificationCenterError {
            switch error {
            case .invalidAttachment(let problem, let why): return UNError(problem.errorCode, why)
            case .notAllowed(let why): return UNError(.notificationsNotAllowed, why)
            case .invalidTrigger(let why): return UNError(.notificationInvalidNoDate, why)
            }
        } catch {
            return UNError(.notificationsNotAllowed, "\(error)")
        }
    }

    public func getPendingNotificationRequests(completionHandler: @escaping @Sendable ([UNNotificationRequest]) -> Void) {
        guard let runtime else { return completionHandler([]) }
        runtime.queue.current.enqueue { completionHandler(await Self.pending(runtime)) }
    }

    public func pendingNotificationRequests() async -> [UNNotificationRequest] {
        guard let runtime else { return [] }
        return await runtime.queue.current.perform { await Self.pending(runtime) }
    }

    private static func pending(_ runtime: AppRuntime) async -> [UNNotificationRequest] {
        ((try? await runtime.device.pending(runtime.id)) ?? []).map { UNNotificationRequest(device: $0.request, app: runtime.bundle, remote: false) }
    }

    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        guard let runtime else { return }
        runtime.queue.current.enqueue { try? await runtime.device.removePending(identifiers, app: runtime.id) }
    }

    public func removeAllPendingNotificationRequests() {
        guard let runtime else { return }
        runtime.queue.current.enqueue { try? await runtime.device.removeAllPending(app: runtime.id) }
    }

    // MARK: Delivered notifications

    public func getDeliveredNotifications(completionHandler: @escaping @Sendable ([UNNotification]) -> Void) {
        guard let runtime else { return completionHandler([]) }
        runtime.queue.current.enqueue { completionHandler(await Self.delivered(runtime)) }
    }

    /// The app's notifications in Notification Center, oldest first.
    public func deliveredNotifications() async -> [UNNotification] {
        guard let runtime else { return [] }
        return await runtime.queue.current.perform { await Self.delivered(runtime) }
    }

    private static func delivered(_ runtime: AppRuntime) async -> [UNNotification] {
        ((try? await runtime.device.deliveredList(runtime.id)) ?? []).map {
            UNNotification(date: $0.date, request: UNNotificationRequest(device: $0.request, app: runtime.bundle, remote: false))
        }
    }

    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        guard let runtime else { return }
        runtime.queue.current.enqueue { try? await runtime.device.removeDelivered(identifiers, app: runtime.id) }
    }

    public func removeAllDeliveredNotifications() {
        guard let runtime else { return }
        runtime.queue.current.enqueue { try? await runtime.device.removeDelivered(nil, app: runtime.id) }
    }

    // MARK: Categories and badge

    /// Replaces the app's whole set of categories.
    public func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        guard let runtime else { return }
        let deviceCategories = categories.sorted { $0.identifier < $1.identifier }.map(\.deviceCategory)
        runtime.queue.current.enqueue {
            do {
                try await runtime.device.setCategories(deviceCategories, app: runtime.id)
            } catch {
                await runtime.note("setNotificationCategories: \(error)", details: ["call": "setNotificationCategories", "error": "\(error)"])
            }
        }
    }

    public func getNotificationCategories(completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void) {
        guard let runtime else { return completionHandler([]) }
        runtime.queue.current.enqueue { completionHandler(await Self.categories(runtime)) }
    }

    public func notificationCategories() async -> Set<UNNotificationCategory> {
        guard let runtime else { return [] }
        return await runtime.queue.current.perform { await Self.categories(runtime) }
    }

    private static func categories(_ runtime: AppRuntime) async -> Set<UNNotificationCategory> {
        Set(((try? await runtime.device.categories(runtime.id)) ?? []).map(UNNotificationCategory.make(device:)))
    }

    /// Sets the number on the app's icon (0 clears it).
    public func setBadgeCount(_ newBadgeCount: Int, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        guard let runtime else {
            completionHandler?(Self.detachedError)
            return
        }
        runtime.queue.current.enqueue {
            do {
                try await runtime.device.setBadge(newBadgeCount, app: runtime.id)
                completionHandler?(nil)
            } catch {
                completionHandler?(UNError(.badgeInputInvalid, "\(error)"))
            }
        }
    }

    public func setBadgeCount(_ newBadgeCount: Int) async throws {
        let runtime = try attached()
        let error = await runtime.queue.current.perform { () async -> UNError? in
            do {
                try await runtime.device.setBadge(newBadgeCount, app: runtime.id)
                return nil
            } catch {
                return UNError(.badgeInputInvalid, "\(error)")
            }
        }
        if let error { throw error }
    }

    // MARK: Support

    private static let detachedError = UNError(
        .notificationsNotAllowed,
        "no simulated app is running: launch one with SimulatedApp.launch(_:on:…) before using UNUserNotificationCenter.current()"
    )

    private func attached() throws(UNError) -> AppRuntime {
        guard let runtime else { throw Self.detachedError }
        return runtime
    }
}
