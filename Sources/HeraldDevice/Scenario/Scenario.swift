import Foundation
import HeraldCore

/// A notification UI test: apps installed on a simulated device, then steps (pushes, local
/// notifications, time, taps) and expectations about what the device did. Read from YAML by
/// ``ScenarioParser``, played by ``ScenarioRunner``.
public struct Scenario: Sendable {
    public var name: String
    public var start: Date
    public var timeZone: TimeZone
    public var locked: Bool
    /// The device's preferred languages, most preferred first.
    public var languages: [String] = ["en"]
    public var lowPowerMode = false
    /// Virtual seconds added to every download an extension makes.
    public var networkLatency: Double
    public var apps: [App]
    public var steps: [Step]

    /// An app as the scenario installs it.
    public struct App: Sendable {
        public var bundle: AppBundle
        public var settings: NotificationSettings
        public var state: AppRunState
        public var forceQuit: Bool
        public var delegate: Delegate
        /// A PKPushRegistry for VoIP pushes: whether it reports each to CallKit (`nil`: none).
        public var pushKitReportsCall: Bool?
        /// The shipped steps its service extension runs, if it names them.
        public var serviceExtension: ServiceExtensionRecipe?
        public var contentExtensions: [String: ScriptedContentExtension]
        public var categories: [NotificationCategory]
    }

    /// The app's notification delegate.
    public enum Delegate: Sendable {
        /// No delegate is set.
        case none
        /// A delegate without `willPresent`.
        case withoutWillPresent
        /// A delegate whose `willPresent` answers these options.
        case willPresent(PresentationOptions)
    }

    /// One line of the scenario, with where it is in the file.
    public struct Step: Sendable {
        public var line: Int
        public var action: Action
    }

    /// Refers to a notification: by identifier, or `last` for the latest shown or received.
    public typealias NotificationReference = String

    public enum Action: Sendable {
        case push(Payload, PushHeaders, app: String?)
        case local(NotificationRequest, app: String?)
        case cancel([String], app: String?)
        case advance(Double)
        case state(AppRunState, forceQuit: Bool, app: String?)
        case lock(Bool)
        case settings(SettingsChange, app: String?)
        case expand(NotificationReference)
        case tap(NotificationReference, action: String?, text: String?)
        case dismiss(NotificationReference)
        case render(NotificationReference, svgPath: String?, pngPath: String?)
        case expect(Expectation)
        case expectNot(Expectation)
        case expectBadge(Int, app: String?)
        case register(sandbox: URL, environment: String, serverURL: URL?, app: String?)
        case online(Bool, app: String?)
        case receive(count: Int, timeout: Double)
        /// An app state change at a later time on the device's clock (the first app by default).
        case laterState(AppRunState, app: String?, after: Double)
        /// A lock change at a later time on the device's clock.
        case laterLock(Bool, after: Double)
        case timeZone(TimeZone)
        case languages([String])
        case lowPowerMode(Bool)
        /// `removeDeliveredNotifications(withIdentifiers:)`; `nil` removes them all.
        case removeDelivered([String]?, app: String?)
        case removeAllPending(app: String?)
        /// `setBadgeCount`.
        case setBadge(Int, app: String?)
        /// The identifiers `getPendingNotificationRequests` / `getDeliveredNotifications` give, as a set.
        case expectPending([String], app: String?)
        case expectDelivered([String], app: String?)
    }

    /// The switches a `settings` step (or an app's own keys) sets; the others keep their value.
    public struct SettingsChange: Sendable {
        public var authorization: NotificationSettings.Authorization?
        public var alert: Bool?
        public var sound: Bool?
        public var badge: Bool?
        public var lockScreen: Bool?
        public var notificationCenter: Bool?
        public var criticalAlert: Bool?
        public var previews: NotificationSettings.Previews?

        public func applied(to settings: NotificationSettings) -> NotificationSettings {
            var settings = settings
            if let authorization { settings.authorization = authorization }
            if let alert { settings.alert = alert }
            if let sound { settings.sound = sound }
            if let badge { settings.badge = badge }
            if let lockScreen { settings.lockScreen = lockScreen }
            if let notificationCenter { settings.notificationCenter = notificationCenter }
            if let criticalAlert { settings.criticalAlert = criticalAlert }
            if let previews { settings.previews = previews }
            return settings
        }
    }

    /// What an `expect` looks for among the events of the steps since the previous `expect`.
    public struct Expectation: Sendable {
        public var kind: DeviceEvent.Kind
        public var notification: NotificationReference?
        public var app: String?
        /// Each must equal the event's detail (a list like `banner,list` compares as a set).
        public var details: [String: String]
        /// Each must be a subset of the event's JSON detail of that name (`user-info`).
        public var jsonDetails: [String: JSONObject] = [:]
        /// The event's message must contain this.
        public var messageContains: String?
        /// How many events must match (at least one when absent).
        public var count: Int?
    }
}
