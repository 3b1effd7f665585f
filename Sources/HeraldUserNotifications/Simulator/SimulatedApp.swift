import Foundation
import HeraldDevice

/// An app whose own code (app delegate, notification delegate, service and content extensions)
/// runs on a ``SimulatedDevice``, for tests (Swift Testing or XCTest):
///
/// ```swift
/// let device = SimulatedDevice()
/// let app = try await SimulatedApp.launch(
///     try AppBundle.load(from: appFolder), on: device,
///     appDelegate: { AppDelegate() }, serviceExtension: { NotificationService() }
/// )
/// try await app.receive(payload)
/// let shown = await device.shown.last   // what the user sees
/// let transcript = await device.transcript
/// ```
///
/// `UNUserNotificationCenter.current()` and `UIApplication.shared` in the app's code refer to
/// this app. The device applies iOS's rules to everything the code does.
public final class SimulatedApp: Sendable {
    public let device: SimulatedDevice
    public let bundle: AppBundle
    let runtime: AppRuntime

    /// The app's `UNUserNotificationCenter`.
    public var notificationCenter: UNUserNotificationCenter { runtime.center }

    /// The app's `UIApplication`.
    @MainActor public var application: UIApplication { runtime.application }

    private init(runtime: AppRuntime) {
        self.device = runtime.device
        self.bundle = runtime.bundle
        self.runtime = runtime
    }

    /// Installs the app on the device and launches it into the foreground: the app delegate (if
    /// any) gets `application(_:didFinishLaunchingWithOptions:)`, and everything the app started
    /// there (authorization, categories, registration) has finished when this returns.
    ///
    /// - Parameters:
    ///   - settings: the app's notification settings before it asks (not determined by default).
    ///   - userAllowsNotifications: what the simulated user answers to `requestAuthorization`.
    ///   - appDelegate: makes the app delegate (on the main actor).
    ///   - serviceExtension: makes the app's `UNNotificationServiceExtension` subclass (a new
    ///     instance for each notification), e.g. `{ NotificationService() }`.
    ///   - contentExtensions: makes each content extension's view controller, keyed by the
    ///     extension's folder name under `PlugIns` (its Info.plist says which categories it shows).
    ///   - sandbox: the admin URL of a `herald sandbox`, for `registerForRemoteNotifications`.
    ///   - environment: `development` or `production`; by default the `aps-environment` entitlement.
    ///   - extensionTimeScale: virtual seconds per real second for the service extension (30 s of
    ///     budget last `30 / scale` real seconds).
    ///   - callbackTimeout: how long app code may take to call a completion handler.
    public static func launch(
        _ bundle: AppBundle, on device: SimulatedDevice, settings: NotificationSettings = NotificationSettings(),
        userAllowsNotifications: Bool = true,
        appDelegate: (@MainActor @Sendable () -> any UIApplicationDelegate)? = nil,
        serviceExtension: (@Sendable () -> UNNotificationServiceExtension)? = nil,
        contentExtensions: [String: @MainActor @Sendable () -> any UNNotificationContentExtension] = [:],
        sandbox: URL? = nil, environment: String? = nil,
        extensionTimeScale: Double = 1, callbackTimeout: Duration = .seconds(10)
    ) async throws -> SimulatedApp {
        try AppRuntime.check(extensionTimeScale: extensionTimeScale, callbackTimeout: callbackTimeout)
        let link = try sandbox.map { url throws(DeviceError) in try SandboxLink(adminURL: url) }
        let runtime = AppRuntime(device: device, bundle: bundle, userAllowsNotifications: userAllowsNotifications,
                                 callbackTimeout: callbackTimeout, sandbox: link, environment: environment)
        var contentHandlers: [String: any NotificationContentExtension] = [:]
        for (name, make) in contentExtensions {
            guard bundle.contentExtensions.contains(where: { $0.name == name }) else {
                throw DeviceError.invalid("the app has no content extension named \"\(name)\" under PlugIns; it has "
                    + (bundle.contentExtensions.isEmpty ? "none" : bundle.contentExtensions.map(\.name).joined(separator: ", ")))
            }
            contentHandlers[name] = ContentExtensionBridge(make: make, runtime: runtime)
        }
        let service = serviceExtension.map {
            ServiceExtensionBridge(make: $0, runtime: runtime, virtualSecondsPerRealSecond: extensionTimeScale)
        }
        await device.install(bundle, settings: settings, state: .foreground, delegate: DelegateBridge(center: runtime.center, app: WeakRuntime(runtime)),
                             serviceExtension: service, contentExtensions: contentHandlers)
        runtime.becomeLaunchedLast()
        let app = SimulatedApp(runtime: runtime)
        if let appDelegate { await runtime.launch(appDelegate) }
        await runtime.settle()
        return app
    }

    /// Runs app code as this app (so `UNUserNotificationCenter.current()` is its center), then
    /// waits for what it started.
    public func run<T>(_ body: () async throws -> T) async throws -> T {
        let result = try await runtime.run { () async -> Result<T, any Error> in
            do { return .success(try await body()) } catch { return .failure(error) }
        }.get()
        await runtime.settle()
        return result
    }

    /// Waits until what the app's code started (center calls, registration, main-queue work)
    /// has finished.
    public func settle() async {
        await runtime.settle()
    }

    /// Delivers a push to the app as if from APNs (without a sandbox).
    @discardableResult
    public func receive(_ payload: HeraldCore.Payload, headers: PushHeaders = PushHeaders()) async throws -> String {
        let identifier = try await device.receive(payload, app: bundle.bundleIdentifier, headers: headers)
        await runtime.settle()
        return identifier
    }

    /// The device token the sandbox gave the app, once it registered.
    public var deviceToken: String? { runtime.token.withLock { $0 } }

    /// Waits until `count` pushes in all have come from the sandbox and been handled; false
    /// when `timeout` passes first.
    public func waitForPushes(_ count: Int, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while runtime.pushesReceived.withLock({ $0 }) < count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        await runtime.settle()
        return true
    }

    /// Stops listening to the sandbox (the app is terminated).
    public func terminate() async {
        runtime.stopPushes()
        try? await device.setState(.notRunning, app: bundle.bundleIdentifier)
    }
}

import HeraldCore
