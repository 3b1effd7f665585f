import Foundation
import HeraldCore
import HeraldDevice
import Synchronization

/// One app running on a simulated device: what its `UNUserNotificationCenter` and
/// `UIApplication` talk to.
///
/// On iOS a process is one app, so `UNUserNotificationCenter.current()` and
/// `UIApplication.shared` need no argument. Here a test may run several apps in one process: the
/// app whose code is being called is a task-local value, set around every call into app code;
/// code that leaves the task (a `DispatchQueue` or URLSession callback) gets the app launched
/// last. That one process-wide reference is the price of Apple's singletons.
final class AppRuntime: @unchecked Sendable {
    let device: SimulatedDevice
    let bundle: AppBundle
    let queue = CenterQueue()
    /// What the simulated user answers when the app asks for authorization.
    let userAllowsNotifications: Bool
    /// How long app code may take to call a completion handler.
    let callbackTimeout: Duration
    /// The sandbox that hands out device tokens, if any.
    let sandbox: SandboxLink?
    /// `development` or `production`; `nil` reads the app's `aps-environment` entitlement.
    let environment: String?
    let requestedOptions = Mutex<UNAuthorizationOptions>([])
    let token = Mutex<String?>(nil)

    /// Work the system does for the app outside the center's queue (registration).
    private let work = Mutex<[Task<Void, Never>]>([])
    /// Forwards the sandbox's pushes for the app's token to the device.
    private let forwarder = Mutex<Task<Void, Never>?>(nil)
    /// Pushes received from the sandbox so far.
    let pushesReceived = Mutex(0)
    /// Forwards the sandbox's pushes for the app's PushKit (VoIP) token to the device.
    private let voipForwarder = Mutex<Task<Void, Never>?>(nil)
    /// Incoming calls the app reported to CallKit so far.
    let callsReported = Mutex(0)
    /// Set once at launch; the app's center and application refer back weakly.
    private(set) var center: UNUserNotificationCenter!
    private(set) var application: UIApplication!

    var id: String { bundle.bundleIdentifier }

    init(device: SimulatedDevice, bundle: AppBundle, userAllowsNotifications: Bool, callbackTimeout: Duration, sandbox: SandboxLink?, environment: String?) {
        self.device = device
        self.bundle = bundle
        self.userAllowsNotifications = userAllowsNotifications
        self.callbackTimeout = callbackTimeout
        self.sandbox = sandbox
        self.environment = environment
        center = UNUserNotificationCenter(runtime: self)
        application = UIApplication(runtime: self)
    }

    deinit {
        forwarder.withLock { $0?.cancel() }
        voipForwarder.withLock { $0?.cancel() }
    }

    // MARK: System work

    /// Runs work for the app that ``settle()`` waits for.
    func track(_ body: @escaping @Sendable () async -> Void) {
        let task = Task { await body() }
        work.withLock { $0.append(task) }
    }

    /// Returns once the center's queued operations, the registration work and what app code
    /// put on the main queue meanwhile have all run.
    func settle() async {
        for _ in 0..<3 {
            await queue.settle()
            let tasks = work.withLock { tasks in
                defer { tasks.removeAll() }
                return tasks
            }
            for task in tasks { await task.value }
            await MainActor.run {}
        }
    }

    /// Makes the app delegate and calls `application(_:didFinishLaunchingWithOptions:)`.
    func launch(_ appDelegate: @MainActor @Sendable () -> any UIApplicationDelegate) async {
        becomeLaunchedLast()
        await run {
            await MainActor.run {
                let application = self.application!
                let delegate = appDelegate()
                application.delegate = delegate
                _ = delegate.application(application, didFinishLaunchingWithOptions: nil)
            }
        }
        await note("application(_:didFinishLaunchingWithOptions:) called", details: ["call": "didFinishLaunching"])
    }

    // MARK: Remote notifications

    /// Registers the app's token with the sandbox and starts passing its pushes to the device.
    func registerForPushes() async -> Result<String, any Error> {
        guard let sandbox else {
            return .failure(NSError(domain: NSCocoaErrorDomain, code: 3010, userInfo: [
                NSLocalizedDescriptionKey: "remote notifications need an APNs sandbox: launch the app with SimulatedApp.launch(…, sandbox: URL) and a running herald sandbox",
            ]))
        }
        guard let environment = environment ?? bundle.entitlements[Entitlement.apsEnvironment]?.stringValue else {
            return .failure(NSError(domain: NSCocoaErrorDomain, code: 3000, userInfo: [
                NSLocalizedDescriptionKey: "no valid \"aps-environment\" entitlement string found for application: add the Push Notifications capability",
            ]))
        }
        do {
            let token = try await sandbox.register(bundleID: id, environment: environment)
            let pushes = try await sandbox.pushes(token: token)
            self.token.withLock { $0 = token }
            await device.noteRegistration(app: id, token: token, environment: environment, sandbox: URL(string: "http://\(sandbox.host):\(sandbox.port)")!)
            forward(pushes, through: forwarder, pushType: nil)
            return .success(token)
        } catch {
            return .failure(error)
        }
    }

    /// A PushKit token from the sandbox (a token of its own, as APNs gives), whose VoIP pushes go
    /// to the device; a failure when the app was launched without a sandbox.
    func registerForVoIPPushes() async -> Result<String, any Error> {
        guard let sandbox else { return .failure(DeviceError.invalid("no sandbox: the PushKit token is made locally")) }
        let environment = environment ?? bundle.entitlements[Entitlement.apsEnvironment]?.stringValue ?? "development"
        do {
            let token = try await sandbox.register(bundleID: id, environment: environment)
            // A VoIP token only gets VoIP pushes.
            forward(try await sandbox.pushes(token: token), through: voipForwarder, pushType: .voip)
            return .success(token)
        } catch {
            return .failure(error)
        }
    }

    /// Passes the sandbox's pushes for one token to the device (`pushType` fills a missing
    /// header), replacing the forwarder that ran in `slot`.
    private func forward(_ pushes: AsyncThrowingStream<IncomingPush, any Error>, through slot: borrowing Mutex<Task<Void, Never>?>, pushType: PushType?) {
        let device = device
        let id = id
        let task = Task { [weak self] in
            do {
                for try await push in pushes {
                    var headers = push.headers
                    if headers.pushType == nil { headers.pushType = pushType }
                    _ = try? await device.receive(push.payload, app: id, headers: headers)
                    self?.pushesReceived.withLock { $0 += 1 }
                }
            } catch {}
        }
        slot.withLock { previous in
            previous?.cancel()
            previous = task
        }
    }

    func stopVoIPPushes() { stop(voipForwarder) }

    func stopPushes() { stop(forwarder) }

    private func stop(_ slot: borrowing Mutex<Task<Void, Never>?>) {
        slot.withLock { task in
            task?.cancel()
            task = nil
        }
    }

    // MARK: The current app

    @TaskLocal static var current: AppRuntime?
    /// Set for code that belongs to no app (a scenario's shipped steps): it must not reach
    /// the app launched last.
    @TaskLocal static var noApp = false

    private struct Weak: Sendable {
        weak var runtime: AppRuntime?
    }

    private static let launchedLast = Mutex(Weak())

    /// The app whose code runs now.
    static var running: AppRuntime? {
        if let current { return current }
        return noApp ? nil : launchedLast.withLock { $0.runtime }
    }

    /// Refuses time scales and timeouts that would make no sense (or trap).
    static func check(extensionTimeScale: Double, callbackTimeout: Duration) throws(DeviceError) {
        guard extensionTimeScale.isFinite, extensionTimeScale > 0, extensionTimeScale <= 1_000_000 else {
            throw .invalid("extensionTimeScale must be a number above 0 (1 is real time, 30 makes the 30 s one real second); it is \(extensionTimeScale)")
        }
        guard callbackTimeout > .zero else { throw .invalid("callbackTimeout must be above zero; it is \(callbackTimeout)") }
    }

    /// Makes this the app that code outside any task-local scope sees.
    func becomeLaunchedLast() {
        Self.launchedLast.withLock { $0 = Weak(runtime: self) }
    }

    /// Runs app code with this app as the current one.
    func run<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async -> T) async -> T {
        await Self.$current.withValue(self, operation: body, isolation: isolation)
    }

    /// Writes what app code did to the device's transcript.
    func note(_ message: String, notification: String? = nil, details: [String: String] = [:]) async {
        await device.noteAppCode(message, app: id, notification: notification, details: details)
    }
}
