import Foundation
import HeraldCore

/// Says, step by step, what an iPhone would do with a payload and why: plays it on a simulated
/// device and returns the transcript and what the user would see.
public struct DeviceExplainer: Sendable {
    /// The app the payload is for. Without one, an app with a (pass-through) service extension
    /// that registered the payload's category is assumed.
    public var app: AppBundle?
    public var serviceExtension: (any NotificationServiceExtension)?
    public var state: AppRunState
    public var locked: Bool
    public var settings: NotificationSettings
    /// The foreground delegate's `willPresent` answer (`nil`: not implemented).
    public var foregroundOptions: PresentationOptions?
    public var fetcher: any MediaFetcher

    public init(
        app: AppBundle? = nil, serviceExtension: (any NotificationServiceExtension)? = nil, state: AppRunState = .background, locked: Bool = false,
        settings: NotificationSettings = .granted, foregroundOptions: PresentationOptions? = [.banner, .list, .sound, .badge],
        fetcher: any MediaFetcher = HTTPMediaFetcher()
    ) {
        self.app = app
        self.serviceExtension = serviceExtension
        self.state = state
        self.locked = locked
        self.settings = settings
        self.foregroundOptions = foregroundOptions
        self.fetcher = fetcher
    }

    /// The result: every step, and the banner when one is shown.
    public struct Explanation: Sendable {
        public var assumptions: [String]
        public var events: [DeviceEvent]
        public var shown: ShownNotification?
    }

    public func explain(_ payload: Payload, headers: PushHeaders = PushHeaders()) async -> Explanation {
        var assumptions: [String] = []
        let bundle = app ?? {
            assumptions.append("the app (com.example.app) has a notification service extension that "
                + (serviceExtension == nil ? "changes nothing" : "runs the --extension steps"))
            return AppBundle(bundleIdentifier: "com.example.app", displayName: "Example", extensions: [.serviceExtension()])
        }()
        let device = SimulatedDevice(now: Date(), locked: locked, fetcher: fetcher, extensionRealTimeLimit: .seconds(35))
        await device.install(bundle, settings: settings, state: state, delegate: ScriptedDelegate(foregroundOptions: foregroundOptions),
                             serviceExtension: serviceExtension)
        if let category = payload.aps.category, !category.isEmpty {
            assumptions.append("the app registered the category \"\(category)\" (without actions)")
            try? await device.setCategories([NotificationCategory(identifier: category, actions: [])], app: bundle.bundleIdentifier)
        }
        assumptions.append("the app is \(state.rawValue), the device is \(locked ? "locked" : "unlocked"), notifications are \(settings.authorization.rawValue)")
        let identifier = ((try? await device.send(payload, app: bundle.bundleIdentifier, headers: headers)) ?? nil) ?? ""
        let events = await device.transcript.filter { $0.kind != .installed }
        return Explanation(assumptions: assumptions, events: events, shown: await device.shownNotification(identifier))
    }
}
