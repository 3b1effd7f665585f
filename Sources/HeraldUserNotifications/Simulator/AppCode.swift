import Foundation
import HeraldDevice

/// The developer's own types for `herald device run`-style scenarios played from a test: each
/// is registered under the name the app folder uses, and replaces what the scenario would run.
///
/// ```swift
/// let code = AppCode(serviceExtensions: ["NotificationService": { NotificationService() }],
///                    contentExtensions: ["NotificationContent": { NotificationViewController() }])
/// let report = await ScenarioRunner(extensions: ShippedExtensions(), appCode: code).run(scenario)
/// ```
public struct AppCode: ScenarioAppCode {
    /// Makes service extensions, by the extension's folder name under `PlugIns` (without `.appex`).
    public var serviceExtensions: [String: @Sendable () -> UNNotificationServiceExtension]
    /// Content extension view controllers by folder name.
    public var contentExtensions: [String: @MainActor @Sendable () -> any UNNotificationContentExtension]
    /// App delegates by bundle identifier; launched once the scenario installed the app.
    public var appDelegates: [String: @MainActor @Sendable () -> any UIApplicationDelegate]
    public var extensionTimeScale: Double
    public var callbackTimeout: Duration

    public init(
        serviceExtensions: [String: @Sendable () -> UNNotificationServiceExtension] = [:],
        contentExtensions: [String: @MainActor @Sendable () -> any UNNotificationContentExtension] = [:],
        appDelegates: [String: @MainActor @Sendable () -> any UIApplicationDelegate] = [:],
        extensionTimeScale: Double = 1, callbackTimeout: Duration = .seconds(10)
    ) {
        self.serviceExtensions = serviceExtensions
        self.contentExtensions = contentExtensions
        self.appDelegates = appDelegates
        self.extensionTimeScale = extensionTimeScale
        self.callbackTimeout = callbackTimeout
    }

    public func attach(to app: AppBundle, on device: SimulatedDevice) async throws -> (any Sendable)? {
        try AppRuntime.check(extensionTimeScale: extensionTimeScale, callbackTimeout: callbackTimeout)
        let service = app.serviceExtension.flatMap { serviceExtensions[$0.name] }
        let contents = app.contentExtensions.compactMap { bundle in contentExtensions[bundle.name].map { (bundle.name, $0) } }
        let appDelegate = appDelegates[app.bundleIdentifier]
        guard service != nil || !contents.isEmpty || appDelegate != nil else { return nil }
        let runtime = AppRuntime(device: device, bundle: app, userAllowsNotifications: true, callbackTimeout: callbackTimeout,
                                 sandbox: nil, environment: nil)
        let id = app.bundleIdentifier
        if let service {
            try await device.setServiceExtension(
                ServiceExtensionBridge(make: service, runtime: runtime, virtualSecondsPerRealSecond: extensionTimeScale), app: id
            )
        }
        for (name, make) in contents {
            try await device.setContentExtension(ContentExtensionBridge(make: make, runtime: runtime), named: name, app: id)
        }
        if let appDelegate {
            try await device.setDelegate(DelegateBridge(center: runtime.center, app: WeakRuntime(runtime)), app: id)
            await runtime.launch(appDelegate)
        }
        return runtime
    }
}
