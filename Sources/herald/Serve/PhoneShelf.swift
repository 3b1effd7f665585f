import Foundation
import HeraldCore
import HeraldDevice
import HeraldSandbox
import HeraldServer
import HeraldShippedExtensions

/// The simulated iPhones `herald serve` runs for its console: each a HeraldDevice running one
/// app folder (seed 000's QiShare demo by default) with seed 000's service extension (the title
/// rewritten, the category with four actions, the picture in `media.url` downloaded) and content
/// extension, its token registered with the in-process sandbox, whose pushes it receives as
/// they are accepted.
actor PhoneShelf: SimulatedPhones {
    /// At most this many phones at once.
    static let limit = 8

    private let sandbox: Sandbox
    private let appFolder: URL
    private var phones: [String: Phone] = [:]
    private var order: [String] = []

    private struct Phone {
        let device: SimulatedDevice
        let token: String
        let bundleID: String
        let appName: String
        let environment: String
        let bundle: AppBundle
        let subscription: UUID
        let receiver: Task<Void, Never>
    }

    init(sandbox: Sandbox, appFolder: URL) {
        self.sandbox = sandbox
        self.appFolder = appFolder
    }

    /// The app as seed 000 sets it up, read by the scenario parser from its folder.
    private func app(bundleID: String) throws -> Scenario.App {
        guard FileManager.default.fileExists(atPath: appFolder.appendingPathComponent("Info.plist").path) else {
            throw PhoneError("no app folder at \(appFolder.path) (an Info.plist is missing): start herald serve from the repository, or give --phone-app FOLDER", isBadRequest: false)
        }
        let text = """
            name: the console's simulated iPhone
            app:
              folder: \(appFolder.lastPathComponent)
              state: background
              service-extension:
                - rewrite-title: "%@ [ServiceExtension modified]"
                - register-categories:
                    - id: QiShareCategoryIdentifier
                      options: [custom-dismiss-action]
                      intent-identifiers: [ActionA, ActionB, ActionC, ActionD]
                      actions:
                        - {id: ActionA, title: A_Required, options: [authentication-required]}
                        - {id: ActionB, title: B_Destructive, options: [destructive]}
                        - {id: ActionC, title: C_Foreground, options: [foreground]}
                        - {id: ActionD, title: D_InputDestructive, options: [destructive], text-input: {button: Send, placeholder: "input some words here ..."}}
                - set-category: QiShareCategoryIdentifier
                - download-media: {identifier: QiShareCategoryIdentifier}
              content-extensions:
                NotificationContent: {answers: {ActionA: dismiss}, otherwise: do-not-dismiss}
            steps:
              - advance: 0s
            """
        let scenario = try ScenarioParser(file: "console iPhone", baseDirectory: appFolder.deletingLastPathComponent()).parse(text)
        var app = scenario.apps[0]
        app.bundle.bundleIdentifier = bundleID
        return app
    }

    func add(bundleID: String, environment: String) async throws -> PhoneState {
        guard phones.count < Self.limit else {
            throw PhoneError("there are \(Self.limit) simulated iPhones already; remove one first", isBadRequest: false)
        }
        let app: Scenario.App
        do { app = try self.app(bundleID: bundleID) } catch let error as PhoneError { throw error } catch {
            throw PhoneError("the phone's app cannot be set up: \(error)", isBadRequest: false)
        }
        let device = SimulatedDevice(timeZone: TimeZone.current, languages: ["en"])
        await device.install(
            app.bundle, settings: app.settings, state: app.state,
            serviceExtension: app.serviceExtension.map { ShippedExtensions().serviceExtension(for: $0, app: app.bundle) },
            contentExtensions: app.contentExtensions
        )
        let registered: SandboxDevice
        do {
            registered = try sandbox.state.register(topic: bundleID, environment: APNsEnvironment(rawValue: environment))
        } catch {
            throw PhoneError("the sandbox refused the phone's registration: \(error)", isBadRequest: false)
        }
        let token = registered.token
        await device.noteRegistration(app: bundleID, token: token, environment: environment, sandbox: URL(string: sandbox.url)!)
        // Pushes are received one at a time, in the order the sandbox accepted them.
        let (pushes, feed) = AsyncStream.makeStream(of: SandboxNotification.self, bufferingPolicy: .bufferingNewest(100))
        let subscription = sandbox.state.subscribe(token: token) { feed.yield($0) }
        let receiver = Task {
            for await notification in pushes {
                await Self.receive(notification, on: device, bundleID: bundleID)
            }
        }
        let id = "phone_" + String(UUID().uuidString.lowercased().prefix(8))
        phones[id] = Phone(
            device: device, token: token, bundleID: bundleID, appName: app.bundle.displayName, environment: environment, bundle: app.bundle,
            subscription: subscription, receiver: receiver
        )
        order.append(id)
        return await state(id)!
    }

    /// One push as iOS takes it, on the phone's clock brought to now.
    private static func receive(_ notification: SandboxNotification, on device: SimulatedDevice, bundleID: String) async {
        let lag = Date().timeIntervalSince(await device.now)
        if lag > 0 { await device.advance(by: lag) }
        guard let payload = try? Payload(decoding: notification.payload) else { return }
        let headers = PushHeaders(
            apnsID: notification.id, collapseID: notification.collapseID, pushType: notification.pushType.map(PushType.init(rawValue:)),
            priority: notification.priority
        )
        _ = try? await device.receive(payload, app: bundleID, headers: headers)
    }

    func phones(bundleID: String) async -> [PhoneState] {
        var found: [PhoneState] = []
        for id in order where phones[id]?.bundleID == bundleID {
            if let state = await state(id) { found.append(state) }
        }
        return found
    }

    func phone(id: String) async -> PhoneState? {
        await state(id)
    }

    func tap(id: String, notification: String, action: String?, text: String?) async throws -> PhoneState {
        guard let phone = phones[id] else { throw PhoneError("no simulated iPhone '\(id)'") }
        do {
            try await phone.device.tap(notification, action: action, text: text)
        } catch {
            throw PhoneError("\(error)")
        }
        return await state(id)!
    }

    func setLocked(id: String, locked: Bool) async throws -> PhoneState {
        guard let phone = phones[id] else { throw PhoneError("no simulated iPhone '\(id)'") }
        await phone.device.setLocked(locked)
        return await state(id)!
    }

    func remove(id: String) async -> Bool {
        guard let phone = phones.removeValue(forKey: id) else { return false }
        order.removeAll { $0 == id }
        sandbox.state.unsubscribe(token: phone.token, id: phone.subscription)
        phone.receiver.cancel()
        return true
    }

    /// Stops every phone (the server is closing).
    func close() {
        for (_, phone) in phones {
            sandbox.state.unsubscribe(token: phone.token, id: phone.subscription)
            phone.receiver.cancel()
        }
        phones = [:]
        order = []
    }

    private func state(_ id: String) async -> PhoneState? {
        guard let phone = phones[id] else { return nil }
        let shown = await phone.device.shown
        let transcript = await phone.device.transcript
        let badge = (try? await phone.device.badge(phone.bundleID)) ?? 0
        return PhoneState(
            id: id, token: phone.token, bundleId: phone.bundleID, appName: phone.appName, environment: phone.environment,
            locked: await phone.device.locked, badge: badge,
            notifications: shown.reversed().map { item in
                PhoneNotification(
                    identifier: item.identifier, title: item.content.title, subtitle: item.content.subtitle, body: item.content.body,
                    category: item.category?.identifier, attachments: item.content.attachments.count,
                    actions: item.actions.map { action in
                        PhoneAction(
                            id: action.identifier, title: action.title, destructive: action.options.contains(.destructive),
                            textButton: action.textInput?.buttonTitle, textPlaceholder: action.textInput?.placeholder
                        )
                    },
                    svg: BannerRenderer.svg(item, app: phone.bundle)
                )
            },
            transcript: transcript.suffix(200).map(\.description)
        )
    }
}
