import Foundation
import HeraldCore

/// A simulated iPhone: installed apps with their settings and state, a lock, a virtual clock,
/// the notification centers, and a transcript of every step it takes.
///
/// ```swift
/// let device = SimulatedDevice(now: start)
/// try await device.install(app, settings: .granted, state: .background, serviceExtension: PassThroughServiceExtension())
/// try await device.receive(payload, app: app.bundleIdentifier)
/// let banner = await device.shown.last
/// ```
public actor SimulatedDevice {
    /// The virtual time now.
    public internal(set) var now: Date
    public internal(set) var locked: Bool
    /// Every step so far, in order.
    public internal(set) var transcript: [DeviceEvent] = []
    /// What the user can see, oldest first.
    public internal(set) var shown: [ShownNotification] = []
    var apps: [String: InstalledApp] = [:]
    var calendar: Calendar
    let fetcher: any MediaFetcher
    let workDirectory: URL
    let extensionRealTimeLimit: Duration
    /// The user's preferred languages, most preferred first (they choose each app's `.lproj`).
    public internal(set) var languages: [String]
    /// Low Power Mode: background pushes do not wake apps.
    public internal(set) var lowPowerMode = false
    /// Changes due at set times, soonest first.
    var scheduledChanges: [(at: Date, change: ScheduledChange)] = []

    /// - Parameters:
    ///   - now: the virtual clock's start.
    ///   - timeZone: for calendar triggers.
    ///   - fetcher: how service extensions download.
    ///   - workDirectory: where extensions save downloads (a fresh temporary folder by default).
    ///   - extensionRealTimeLimit: real time after which a silent extension is given up on.
    public init(
        now: Date = Date(), locked: Bool = false, timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        languages: [String] = ["en"], fetcher: any MediaFetcher = HTTPMediaFetcher(), workDirectory: URL? = nil,
        extensionRealTimeLimit: Duration = .seconds(35)
    ) {
        self.now = now
        self.locked = locked
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        self.languages = languages
        self.fetcher = fetcher
        self.workDirectory = workDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("herald-device-\(UUID().uuidString.prefix(8))")
        self.extensionRealTimeLimit = extensionRealTimeLimit
    }

    // MARK: Apps

    /// Installs an app. A service extension handler without a declared extension in the bundle
    /// gets one declared; content extension handlers are keyed by extension folder name. Invalid
    /// content-extension plists are reported in the transcript and those extensions are not used.
    public func install(
        _ bundle: AppBundle, settings: NotificationSettings = .granted, state: AppRunState = .notRunning,
        delegate: (any NotificationDelegate)? = nil, serviceExtension: (any NotificationServiceExtension)? = nil,
        contentExtensions: [String: any NotificationContentExtension] = [:]
    ) {
        var bundle = bundle
        if serviceExtension != nil, bundle.serviceExtension == nil {
            bundle.extensions.append(.serviceExtension(userActivityTypes: bundle.userActivityTypes))
        }
        let id = bundle.bundleIdentifier
        var configurations: [ContentExtensionConfiguration] = []
        var problems: [PlistProblem] = []
        for contentExtension in bundle.contentExtensions {
            let read = ContentExtensionConfiguration.read(contentExtension)
            problems += read.problems
            if let configuration = read.configuration { configurations.append(configuration) }
        }
        if let service = bundle.serviceExtension { problems += ContentExtensionConfiguration.serviceExtensionProblems(service) }
        problems += bundle.extensions.compactMap(\.extensionPointProblem)
        // Two extensions claiming one category: iOS uses one of them, and which is not defined.
        var claimed: [String: String] = [:]
        for configuration in configurations {
            for category in configuration.categories {
                if let first = claimed[category] {
                    problems.append(PlistProblem(
                        severity: .warning, extensionName: configuration.extensionName, keyPath: "NSExtension.NSExtensionAttributes.UNNotificationExtensionCategory",
                        message: "category \"\(category)\" is also claimed by \(first); iOS uses only one extension per category, and which one is not defined"))
                } else {
                    claimed[category] = configuration.extensionName
                }
            }
        }
        let center = DeviceNotificationCenter(now: now, calendar: calendar)
        apps[id] = InstalledApp(
            bundle: bundle, settings: settings, state: state, center: center, delegate: delegate,
            serviceExtension: serviceExtension ?? (bundle.serviceExtension != nil ? PassThroughServiceExtension() : nil),
            contentExtensionHandlers: contentExtensions, contentConfigurations: configurations
        )
        let extensions = bundle.extensions.map(\.name)
        record(.installed, app: id, details: ["extensions": extensions.joined(separator: ",")],
               "installed \(bundle.displayName) (\(id))" + (extensions.isEmpty ? "" : " with \(extensions.joined(separator: ", "))"))
        for problem in problems {
            record(.plistProblem, app: id, details: ["severity": problem.severity.rawValue, "extension": problem.extensionName, "key": problem.keyPath],
                   problem.description + (problem.severity == .error ? "; iOS does not use this extension" : ""))
        }
    }

    /// The installed app's bundle.
    public func bundle(_ app: String) throws(DeviceError) -> AppBundle { try installed(app).bundle }

    /// The app's notification settings.
    public func settings(_ app: String) throws(DeviceError) -> NotificationSettings { try installed(app).settings }

    /// `requestAuthorization`: the user's answer becomes the app's settings.
    public func requestAuthorization(_ app: String, userAllows: Bool, provisional: Bool = false) throws(DeviceError) {
        var installed = try installed(app)
        let authorization: NotificationSettings.Authorization = provisional ? .provisional : userAllows ? .authorized : .denied
        installed.settings.authorization = authorization
        apps[app] = installed
        record(.authorization, app: app, details: ["status": authorization.rawValue], "authorization \(authorization.rawValue)")
    }

    /// Changes the app's settings (as the user does in Settings).
    public func setSettings(_ settings: NotificationSettings, app: String) throws(DeviceError) {
        var installed = try installed(app)
        installed.settings = settings
        apps[app] = installed
        record(.authorization, app: app, details: [
            "status": settings.authorization.rawValue, "alert": String(settings.alert), "sound": String(settings.sound), "badge": String(settings.badge),
            "lock-screen": String(settings.lockScreen), "notification-center": String(settings.notificationCenter),
            "critical-alert": String(settings.criticalAlert), "previews": settings.previews.rawValue,
        ], "settings: \(settings.summary)")
    }

    /// Moves the app to the foreground, the background, or stops it. `forceQuit` means the user
    /// swiped it away (then background pushes do not launch it).
    public func setState(_ state: AppRunState, app: String, forceQuit: Bool = false) async throws(DeviceError) {
        if state == .foreground, locked {
            // Opening an app needs the device unlocked.
            locked = false
            record(.lockChanged, app: nil, details: ["locked": "false"], "device unlocked to open the app")
        }
        var installed = try installed(app)
        let opened = state == .foreground && installed.state != .foreground
        installed.state = state
        installed.forceQuit = state == .notRunning && forceQuit
        if state != .notRunning { installed.forceQuit = false }
        // The user opening the app lets VoIP pushes launch it again.
        if state == .foreground { installed.voipMisses = 0 }
        // Force-quitting discards what iOS held for the app.
        if installed.forceQuit { installed.heldBackgroundPush = nil }
        apps[app] = installed
        record(.stateChanged, app: app, details: ["state": state.rawValue, "force-quit": String(installed.forceQuit)],
               "app is \(state.rawValue)" + (installed.forceQuit ? " (force-quit by the user)" : ""))
        if opened { await deliverHeldBackgroundPush(app) }
    }

    public func state(_ app: String) throws(DeviceError) -> AppRunState { try installed(app).state }

    /// Moves the device to another time zone (the user travels): calendar triggers fire at
    /// their wall-clock time in the new zone, time intervals are unchanged.
    public func setTimeZone(_ timeZone: TimeZone) {
        calendar.timeZone = timeZone
        for id in apps.keys {
            apps[id]?.center.setTimeZone(timeZone)
        }
        record(.deviceChanged, app: nil, details: ["time-zone": timeZone.identifier], "time zone is now \(timeZone.identifier)")
    }

    /// Sets the preferred languages (Settings → Language & Region), most preferred first.
    public func setLanguages(_ languages: [String]) {
        self.languages = languages
        record(.deviceChanged, app: nil, details: ["languages": languages.joined(separator: ",")],
               "preferred languages: \(languages.joined(separator: ", "))")
    }

    /// Turns Low Power Mode on or off.
    public func setLowPowerMode(_ on: Bool) {
        lowPowerMode = on
        record(.deviceChanged, app: nil, details: ["low-power-mode": String(on)], "Low Power Mode \(on ? "on: background pushes do not wake apps" : "off")")
    }

    /// Locks or unlocks the device. Locking sends the app in the foreground to the background.
    public func setLocked(_ locked: Bool) {
        guard locked != self.locked else { return }
        self.locked = locked
        record(.lockChanged, app: nil, details: ["locked": String(locked)], locked ? "device locked" : "device unlocked")
        guard locked else { return }
        for id in apps.keys.sorted() where apps[id]?.state == .foreground {
            apps[id]?.state = .background
            record(.stateChanged, app: id, details: ["state": AppRunState.background.rawValue, "force-quit": "false", "by": "lock"],
                   "app is background: locking the device sends it there")
        }
    }

    /// `setNotificationCategories`: replaces the app's whole set.
    /// An action identifier used twice is accepted, as iOS does, with a warning in the transcript.
    public func setCategories(_ categories: [NotificationCategory], app: String) throws(DeviceError) {
        var installed = try installed(app)
        let repeated = installed.center.setCategories(categories)
        apps[app] = installed
        let names = categories.map(\.identifier)
        var details = ["categories": names.joined(separator: ",")]
        var message = names.isEmpty ? "the app registered no categories" : "the app registered categories \(names.joined(separator: ", "))"
        if !repeated.isEmpty {
            details["warning"] = "duplicate-action-identifier"
            message += "; warning: action identifier\(repeated.count == 1 ? "" : "s") \(repeated.joined(separator: ", ")) "
                + "\(repeated.count == 1 ? "is" : "are") used more than once, so the app's response handler cannot tell those actions apart"
        }
        record(.categoriesSet, app: app, details: details, message)
    }

    /// The app's registered categories (`getNotificationCategories`).
    public func categories(_ app: String) throws(DeviceError) -> [NotificationCategory] { try installed(app).center.categories }

    /// Sets the app's notification delegate (`UNUserNotificationCenter.delegate`); `nil` removes it.
    public func setDelegate(_ delegate: (any NotificationDelegate)?, app: String) throws(DeviceError) {
        var installed = try installed(app)
        installed.delegate = delegate
        apps[app] = installed
    }

    /// Replaces the code of the app's service extension (declaring one in the bundle if it has
    /// none), as a developer's own `UNNotificationServiceExtension` subclass does.
    public func setServiceExtension(_ serviceExtension: any NotificationServiceExtension, app: String) throws(DeviceError) {
        var installed = try installed(app)
        if installed.bundle.serviceExtension == nil {
            installed.bundle.extensions.append(.serviceExtension(userActivityTypes: installed.bundle.userActivityTypes))
        }
        installed.serviceExtension = serviceExtension
        apps[app] = installed
    }

    /// Replaces the code of the content extension in the bundle's folder `name` (under `PlugIns`).
    public func setContentExtension(_ contentExtension: any NotificationContentExtension, named name: String, app: String) throws(DeviceError) {
        var installed = try installed(app)
        guard installed.bundle.contentExtensions.contains(where: { $0.name == name }) else {
            let names = installed.bundle.contentExtensions.map(\.name)
            throw .invalid("the app has no content extension named \"\(name)\"; "
                + (names.isEmpty ? "it ships none" : "it ships \(names.joined(separator: ", "))"))
        }
        installed.contentExtensionHandlers[name] = contentExtension
        apps[app] = installed
    }

    /// Sets the number on the app's icon (`setBadgeCount`); a negative count is refused.
    public func setBadge(_ count: Int, app: String) throws(DeviceError) {
        var installed = try installed(app)
        guard count >= 0 else { throw .invalid("a badge count cannot be negative; it is \(count)") }
        installed.badge = count
        apps[app] = installed
        record(.badge, app: app, details: ["badge": String(count), "source": "app"], count == 0 ? "the app cleared its badge" : "the app set its badge to \(count)")
    }

    /// The number on the app's icon.
    public func badge(_ app: String) throws(DeviceError) -> Int { try installed(app).badge }

    /// The app's delivered list (Notification Center), oldest first.
    public func deliveredList(_ app: String) throws(DeviceError) -> [DeviceNotificationCenter.Delivered] { try installed(app).center.delivered }

    /// A shown notification by identifier.
    public func shownNotification(_ identifier: String) -> ShownNotification? {
        shown.last { $0.identifier == identifier }
    }

    // MARK: Support

    func installed(_ app: String) throws(DeviceError) -> InstalledApp {
        guard let installed = apps[app] else { throw .noSuchApp(app) }
        return installed
    }

    /// Puts the events from `index` on in time order (stable: events at one time keep their order).
    func sortTranscript(from index: Int) {
        guard index < transcript.count else { return }
        let tail = transcript[index...].enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        transcript.replaceSubrange(index..., with: tail)
    }

    func record(
        _ kind: DeviceEvent.Kind, at time: Date? = nil, app: String?, notification: String? = nil, details: [String: String] = [:],
        _ message: String
    ) {
        assert(Set(details.keys).isSubset(of: kind.detailKeys), "\(kind.rawValue) records keys \(details.keys.sorted()) beyond \(kind.detailKeys)")
        transcript.append(DeviceEvent(time: time ?? now, kind: kind, app: app, notification: notification, details: details, message: message))
    }
}

extension SimulatedDevice {
    /// Records what the app's own code did (a call it made, a callback it answered).
    public func noteAppCode(_ message: String, app: String, notification: String? = nil, details: [String: String] = [:]) {
        record(.appCode, app: app, notification: notification, details: details, message)
    }

    /// Records that an app registered for remote notifications and got a token.
    public func noteRegistration(app: String, token: String, environment: String, sandbox: URL) {
        record(.registered, app: app, details: ["token": token, "environment": environment],
               "registered for remote notifications with \(sandbox.absoluteString): token \(token.prefix(8))… (\(environment))")
    }
}
