import Foundation
import HeraldCore

/// What playing a scenario gave: the transcript, the banners rendered, and every expectation
/// that failed.
public struct ScenarioReport: Sendable {
    public var name: String
    public var transcript: [DeviceEvent]
    /// `line N: …` for each failed expectation or refused step.
    public var failures: [String]
    /// Text banners from `render` steps.
    public var renders: [String]
    public var passed: Bool { failures.isEmpty }
}

/// Plays a ``Scenario`` on a fresh ``SimulatedDevice``.
///
/// Each `expect` looks at the events of the steps between the previous expectations and it; expectations
/// that fail are collected and the scenario goes on. A step the device refuses (tapping an
/// action the notification does not have, say) ends the run with that failure.
public struct ScenarioRunner: Sendable {
    /// How extensions download; by default real HTTP plus the scenario's network latency.
    public var fetcher: (any MediaFetcher)?
    /// Real time a silent extension is waited for.
    public var extensionRealTimeLimit: Duration
    /// Runs the shipped steps a scenario's apps name (HeraldKit's code, `HeraldShippedExtensions`).
    public var extensions: any ServiceExtensionMaker
    /// The developer's own types, put in place of the apps' extensions and delegates by name.
    public var appCode: (any ScenarioAppCode)?

    public init(
        extensions: any ServiceExtensionMaker, appCode: (any ScenarioAppCode)? = nil, fetcher: (any MediaFetcher)? = nil,
        extensionRealTimeLimit: Duration = .seconds(35)
    ) {
        self.extensions = extensions
        self.appCode = appCode
        self.fetcher = fetcher
        self.extensionRealTimeLimit = extensionRealTimeLimit
    }

    public func run(_ scenario: Scenario) async -> ScenarioReport {
        var session = ScenarioSession(scenario: scenario, extensions: extensions, appCode: appCode, device: SimulatedDevice(
            now: scenario.start, locked: scenario.locked, timeZone: scenario.timeZone, languages: scenario.languages,
            fetcher: fetcher ?? HTTPMediaFetcher(simulatedLatency: scenario.networkLatency),
            extensionRealTimeLimit: extensionRealTimeLimit
        ))
        if scenario.lowPowerMode { await session.device.setLowPowerMode(true) }
        await session.install()
        for step in scenario.steps where session.failures.allSatisfy({ !$0.hasPrefix("stopped") }) {
            await session.openWindowIfNeeded(before: step)
            do {
                try await session.perform(step)
            } catch {
                session.failures.append("line \(step.line): \(error)")
                session.failures.append("stopped at line \(step.line); later steps were not played")
            }
        }
        session.close()
        return ScenarioReport(name: scenario.name, transcript: await session.device.transcript, failures: session.failures, renders: session.renders)
    }
}

/// The state of one run: the device, the latest notification, registrations and the window of
/// events the next `expect` looks at.
struct ScenarioSession {
    let scenario: Scenario
    let extensions: any ServiceExtensionMaker
    let appCode: (any ScenarioAppCode)?
    let device: SimulatedDevice
    /// What the app code attached (kept alive for the run).
    var attached: [any Sendable] = []
    var failures: [String] = []
    var renders: [String] = []
    var lastNotification: String?
    var windowStart = 0
    var windowLine = 0
    /// The previous step was an expectation: the next action starts a new window.
    var expectationsClosedWindow = false
    var tokens: [String: (link: SandboxLink, token: String)] = [:]
    var inbox: PushInbox?
    var forwarders: [Task<Void, Never>] = []

    init(scenario: Scenario, extensions: any ServiceExtensionMaker, appCode: (any ScenarioAppCode)?, device: SimulatedDevice) {
        self.scenario = scenario
        self.extensions = extensions
        self.appCode = appCode
        self.device = device
    }

    var defaultApp: String { scenario.apps[0].bundle.bundleIdentifier }

    mutating func install() async {
        for app in scenario.apps {
            let delegate: (any NotificationDelegate)? = switch app.delegate {
            case .none: nil
            case .withoutWillPresent: ScriptedDelegate(foregroundOptions: nil)
            case .willPresent(let options): ScriptedDelegate(foregroundOptions: options)
            }
            await device.install(app.bundle, settings: app.settings, state: app.state, delegate: delegate,
                                 serviceExtension: app.serviceExtension.map { extensions.serviceExtension(for: $0, app: app.bundle) },
                                 contentExtensions: app.contentExtensions)
            if let reportsCall = app.pushKitReportsCall {
                try? await device.setPushKitDelegate(ScriptedPushKitDelegate(reportsCall: reportsCall), app: app.bundle.bundleIdentifier)
            }
            if app.forceQuit { try? await device.setState(.notRunning, app: app.bundle.bundleIdentifier, forceQuit: true) }
            if !app.categories.isEmpty {
                do {
                    try await device.setCategories(app.categories, app: app.bundle.bundleIdentifier)
                } catch {
                    failures.append("app \(app.bundle.bundleIdentifier): \(error)")
                }
            }
            if let appCode {
                do {
                    if let handle = try await appCode.attach(to: app.bundle, on: device) { attached.append(handle) }
                } catch {
                    failures.append("app \(app.bundle.bundleIdentifier): the app code cannot be attached: \(error)")
                }
            }
        }
    }

    func close() {
        for forwarder in forwarders { forwarder.cancel() }
    }

    func resolve(_ reference: String) throws(DeviceError) -> String {
        guard reference == "last" else { return reference }
        guard let lastNotification else { throw .invalid("\"last\" refers to no notification yet") }
        return lastNotification
    }

    mutating func perform(_ step: Scenario.Step) async throws {
        switch step.action {
        case .push(let payload, let headers, let app):
            if let identifier = try await device.send(payload, app: app ?? defaultApp, headers: headers) { lastNotification = identifier }
        case .local(let request, let app):
            lastNotification = request.identifier
            do {
                try await device.add(request, app: app ?? defaultApp)
            } catch is NotificationCenterError {
                // In the transcript as local-rejected; a scenario expects it like any event.
            }
        case .cancel(let identifiers, let app):
            try await device.removePending(identifiers, app: app ?? defaultApp)
        case .advance(let seconds):
            await device.advance(by: seconds)
        case .state(let state, let forceQuit, let app):
            try await device.setState(state, app: app ?? defaultApp, forceQuit: forceQuit)
        case .lock(let locked):
            await device.setLocked(locked)
        case .settings(let change, let app):
            let id = app ?? defaultApp
            try await device.setSettings(change.applied(to: try await device.settings(id)), app: id)
        case .expand(let reference):
            try await device.expand(try resolve(reference))
        case .tap(let reference, let action, let text):
            try await device.tap(try resolve(reference), action: action, text: text)
        case .dismiss(let reference):
            try await device.dismiss(try resolve(reference))
        case .render(let reference, let svgPath, let pngPath):
            let identifier = try resolve(reference)
            guard let item = await device.shownNotification(identifier) else {
                failures.append("line \(step.line): render: notification \(identifier) is not shown")
                return
            }
            renders.append(BannerRenderer.text(item))
            let picture = BannerRenderer.svg(item, app: try? await device.bundle(item.app))
            if let svgPath { try picture.write(toFile: svgPath, atomically: true, encoding: .utf8) }
            if let pngPath { try PNGRasterizer.write(svg: picture, to: pngPath) }
        case .expect(let expectation):
            await check(expectation, negated: false, line: step.line)
        case .expectNot(let expectation):
            await check(expectation, negated: true, line: step.line)
        case .expectBadge(let expected, let app):
            let badge = try await device.badge(app ?? defaultApp)
            if badge != expected { failures.append("line \(step.line): expected badge \(expected), the app's badge is \(badge)") }
        case .register(let sandbox, let environment, let serverURL, let app):
            try await register(app ?? defaultApp, sandbox: sandbox, environment: environment, serverURL: serverURL)
        case .online(let online, let app):
            guard let registration = tokens[app ?? defaultApp] else { throw DeviceError.invalid("register the app with a sandbox before going online or offline") }
            try await registration.link.setOnline(online, token: registration.token)
        case .receive(let count, let timeout):
            try await receive(count, timeout: timeout, line: step.line)
        case .laterState(let state, let app, let seconds):
            try await device.schedule(.state(state, app: app ?? defaultApp), after: seconds)
        case .laterLock(let locked, let seconds):
            try await device.schedule(.lock(locked), after: seconds)
        case .timeZone(let zone):
            await device.setTimeZone(zone)
        case .languages(let languages):
            await device.setLanguages(languages)
        case .lowPowerMode(let on):
            await device.setLowPowerMode(on)
        case .removeDelivered(let identifiers, let app):
            try await device.removeDelivered(identifiers, app: app ?? defaultApp)
        case .removeAllPending(let app):
            try await device.removeAllPending(app: app ?? defaultApp)
        case .setBadge(let count, let app):
            try await device.setBadge(count, app: app ?? defaultApp)
        case .expectPending(let expected, let app):
            let actual = try await device.pending(app ?? defaultApp).map(\.request.identifier)
            if Set(actual) != Set(expected) {
                failures.append("line \(step.line): expected pending requests [\(expected.sorted().joined(separator: ", "))], getPendingNotificationRequests gives [\(actual.sorted().joined(separator: ", "))]")
            }
        case .expectDelivered(let expected, let app):
            let actual = try await device.deliveredList(app ?? defaultApp).map(\.request.identifier)
            if Set(actual) != Set(expected) {
                failures.append("line \(step.line): expected delivered notifications [\(expected.sorted().joined(separator: ", "))], getDeliveredNotifications gives [\(actual.sorted().joined(separator: ", "))]")
            }
        }
    }

    mutating func register(_ app: String, sandbox: URL, environment: String, serverURL: URL?) async throws {
        let link = try SandboxLink(adminURL: sandbox)
        let token = try await link.register(bundleID: app, environment: environment)
        tokens[app] = (link, token)
        await device.noteRegistration(app: app, token: token, environment: environment, sandbox: sandbox)
        let inbox = self.inbox ?? PushInbox()
        self.inbox = inbox
        let source = try await link.pushes(token: token)
        forwarders.append(Task {
            do {
                for try await push in source { await inbox.put(push) }
            } catch {}
        })
        if let serverURL {
            let status = try await SandboxLink.sendToken(token, bundleID: app, environment: environment, to: serverURL)
            if !(200..<300).contains(status) { throw DeviceError.invalid("the server at \(serverURL.absoluteString) answered HTTP \(status) to the token") }
        }
    }

    mutating func receive(_ count: Int, timeout: Double, line: Int) async throws {
        guard let inbox else { throw DeviceError.invalid("receive needs a register step first") }
        for received in 0..<count {
            guard let push = await inbox.next(timeout: timeout) else {
                throw DeviceError.invalid("received \(received) of \(count) pushes within \(timeout.formattedSeconds)")
            }
            lastNotification = try await device.receive(push.payload, app: push.bundleID, headers: push.headers)
        }
    }

    /// Expectations look at the events of the action steps since the previous expectations; an
    /// action after an expectation starts that window afresh.
    mutating func openWindowIfNeeded(before step: Scenario.Step) async {
        switch step.action {
        case .expect, .expectNot, .expectBadge, .expectPending, .expectDelivered:
            expectationsClosedWindow = true
        default:
            if expectationsClosedWindow {
                windowStart = await device.transcript.count
                windowLine = step.line
                expectationsClosedWindow = false
            }
        }
    }

    mutating func check(_ expectation: Scenario.Expectation, negated: Bool, line: Int) async {
        let transcript = await device.transcript
        let window = Array(transcript[windowStart...])
        var target: String?
        if let reference = expectation.notification {
            do {
                target = try resolve(reference)
            } catch {
                failures.append("line \(line): notification: \(reference): \(error)")
                return
            }
        }
        let matches = window.filter { event in
            guard event.kind == expectation.kind else { return false }
            if let app = expectation.app, event.app != app { return false }
            if let target, event.notification != target { return false }
            if let text = expectation.messageContains, !event.message.contains(text) { return false }
            for (key, expected) in expectation.jsonDetails {
                guard let text = event.details[key], case .object(let actual)? = try? JSONParser().parse(text) else { return false }
                guard expected.entries.allSatisfy({ actual[$0.key] == $0.value }) else { return false }
            }
            for (key, expected) in expectation.details {
                guard let actual = event.details[key] else { return false }
                if DeviceEvent.Kind.orderedDetailKeys.contains(key) {
                    if actual != expected { return false }
                } else if expected.contains(",") || actual.contains(",") {
                    if Set(expected.split(separator: ",")) != Set(actual.split(separator: ",")) { return false }
                } else if actual != expected {
                    return false
                }
            }
            return true
        }
        var describe = "\(expectation.kind.rawValue)" + (target.map { " for \($0)" } ?? "")
        describe += expectation.details.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        for (key, value) in expectation.jsonDetails.sorted(by: { $0.key < $1.key }) {
            describe += " \(key)⊇" + String(decoding: JSONValue.object(value).serialized, as: UTF8.self)
        }
        describe += expectation.messageContains.map { " message~\"\($0)\"" } ?? ""
        let since = windowLine == 0 ? "since the start" : "since line \(windowLine)"
        let seen = window.map { "    " + $0.description }.joined(separator: "\n")
        if negated {
            if !matches.isEmpty { failures.append("line \(line): expected no \(describe) \(since), but saw:\n" + matches.map { "    " + $0.description }.joined(separator: "\n")) }
        } else if let count = expectation.count, matches.count != count {
            failures.append("line \(line): expected \(count) × \(describe) \(since), saw \(matches.count); the events were:\n\(seen)")
        } else if expectation.count == nil, matches.isEmpty {
            failures.append("line \(line): expected \(describe) \(since); the events were:\n\(seen.isEmpty ? "    (none)" : seen)")
        }
    }
}
