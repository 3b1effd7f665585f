import Foundation
import HeraldCore
import Synchronization

/// What a service extension works with: the request, its best attempt, the app's bundle, a way
/// to download, a temporary folder, and the virtual clock of its 30 s.
public final class ServiceExtensionContext: Sendable {
    /// The notification as it arrived.
    public let request: NotificationRequest
    /// The payload as it arrived (userInfo), for keys the content model does not carry.
    public let payload: Payload
    /// The app the extension belongs to (Info.plists, entitlements).
    public let app: AppBundle
    /// Where downloaded files go; files here may become attachments.
    public let temporaryDirectory: URL
    /// The virtual time the extension may use.
    public let budget: Double
    let fetcher: any MediaFetcher
    let categoryRegistrar: @Sendable ([NotificationCategory]) async -> Void

    private struct State {
        var bestAttempt: NotificationContent
        var delivered: (content: NotificationContent, at: Double)?
        var elapsed = 0.0
        var log: [(at: Double, message: String)] = []
        var acceptsDelivery = true
        var expiring = false
        var onDelivery: (@Sendable () -> Void)?
        /// Set for an extension working in real time: when it started and the scale.
        var realClock: (start: ContinuousClock.Instant, scale: Double)?

        /// Virtual seconds used: what was spent, or the scaled real time if that is more.
        var used: Double {
            guard let realClock else { return elapsed }
            return max(elapsed, (ContinuousClock.now - realClock.start).inSeconds * realClock.scale)
        }
    }

    private let state: Mutex<State>

    init(
        request: NotificationRequest, payload: Payload, app: AppBundle, temporaryDirectory: URL, budget: Double, fetcher: any MediaFetcher,
        categoryRegistrar: @escaping @Sendable ([NotificationCategory]) async -> Void = { _ in }
    ) {
        self.categoryRegistrar = categoryRegistrar
        self.request = request
        self.payload = payload
        self.app = app
        self.temporaryDirectory = temporaryDirectory
        self.budget = budget
        self.fetcher = fetcher
        self.state = Mutex(State(bestAttempt: request.content))
    }

    /// A mutable copy of the content, as the extension has changed it so far. Changes made after
    /// the 30 s are lost: by then iOS has already asked for the best attempt.
    public var bestAttemptContent: NotificationContent {
        get { state.withLock { $0.bestAttempt } }
        set { updateBestAttempt { $0 = newValue } }
    }

    /// Changes the best attempt in place (ignored once the 30 s are up).
    public func updateBestAttempt(_ change: (inout NotificationContent) -> Void) {
        state.withLock { state in
            guard state.used <= budget else { return }
            change(&state.bestAttempt)
        }
    }

    /// Hands the final content to the system. Only the first call counts, and only while the
    /// extension still has time (or from `serviceExtensionTimeWillExpire`).
    public func contentHandler(_ content: NotificationContent) {
        let notify = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.delivered == nil, state.acceptsDelivery else { return nil }
            let used = state.used
            guard state.expiring || used <= budget else { return nil }
            state.delivered = (content, min(used, budget))
            return state.onDelivery
        }
        notify?()
    }

    /// Virtual seconds used so far.
    public var elapsed: Double { state.withLock { $0.used } }

    /// Virtual seconds left before `serviceExtensionTimeWillExpire`.
    public var remaining: Double { max(0, budget - elapsed) }

    /// Uses up virtual time (work the extension does; downloads add their own).
    public func spend(_ seconds: Double) {
        state.withLock { state in
            state.elapsed += max(0, seconds)
            if state.elapsed > budget, state.delivered == nil { state.acceptsDelivery = false }
        }
    }

    /// Writes a line to the transcript.
    public func log(_ message: String) {
        state.withLock { $0.log.append(($0.used, message)) }
    }

    /// Downloads a URL, using up the virtual time the download takes. App Transport Security
    /// (the extension's Info.plist) applies first.
    public func download(_ url: URL) async throws -> FetchedMedia {
        if let refusal = AppTransportSecurity(infoPlist: app.serviceExtension?.infoPlist).refusal(of: url) {
            throw MediaFetchError(refusal)
        }
        let started = ContinuousClock.now
        do {
            let media = try await fetcher.fetch(url)
            spend(max(media.simulatedSeconds, (ContinuousClock.now - started).inSeconds))
            guard elapsed <= budget else {
                throw MediaFetchError("the download of \(url.absoluteString) was still running when the 30 s ran out (\(elapsed.formattedSeconds) in all)")
            }
            return media
        } catch {
            spend((ContinuousClock.now - started).inSeconds)
            throw error
        }
    }

    /// `setNotificationCategories` from the extension: replaces the app's categories, in time
    /// for this notification to use them.
    public func setNotificationCategories(_ categories: [NotificationCategory]) async {
        await categoryRegistrar(categories)
    }

    /// Saves bytes in the temporary folder under `name` (its extension tells iOS the type).
    public func save(_ data: Data, as name: String) throws -> URL {
        try FileManager.default.createDirectory(at: temporaryDirectory, withIntermediateDirectories: true)
        let url = temporaryDirectory.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    // MARK: Read by the runner

    var delivered: (content: NotificationContent, at: Double)? { state.withLock { $0.delivered } }

    var logLines: [(at: Double, message: String)] { state.withLock { $0.log } }

    /// From now on, deliveries count only through `serviceExtensionTimeWillExpire`.
    func closeDelivery() { state.withLock { $0.acceptsDelivery = false } }

    func openForExpiry() {
        state.withLock { state in
            state.acceptsDelivery = true
            state.expiring = true
        }
    }

    /// From now on, real time counts: each real second for `scale` virtual seconds.
    func startRealClock(scale: Double) { state.withLock { $0.realClock = (ContinuousClock.now, scale) } }

    func onDelivery(_ notify: @escaping @Sendable () -> Void) { state.withLock { $0.onDelivery = notify } }
}
