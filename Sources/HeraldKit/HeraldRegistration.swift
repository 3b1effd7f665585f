import Foundation
import HeraldCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Registers the device with `herald serve` (`PUT /v1/devices/{token}`): the token with its
/// environment, the user, tags, locale, time zone, app version and, with a key store, the public
/// key sealed alerts are made for.
///
/// Call ``register(deviceToken:)`` from `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`
/// on every launch (the server expects it; it is idempotent), and ``refresh()`` when the user
/// signs in or out. While ``startObservingChanges()`` is on, a change of locale or time zone is
/// sent again. Failures are retried with back-off: network errors, 429 and 5xx answers; other
/// 4xx answers are the app's mistake (a wrong key, a bad field) and are reported, not retried.
public final class HeraldRegistration: @unchecked Sendable {
    /// What to register and where.
    public struct Configuration: Sendable {
        /// `herald serve`'s base URL, e.g. `https://push.example.com`.
        public var serverURL: URL
        /// The app's API key (`hk_app_…`).
        public var apiKey: String
        /// `development` or `production`: the app's `aps-environment` entitlement.
        public var environment: String
        public var userID: String?
        public var tags: [String]
        public var appVersion: String?
        /// Makes and keeps the device's encryption key; `nil` registers no key.
        public var keyStore: (any HeraldKeyStore)?
        /// At most this many attempts per registration.
        public var maximumAttempts: Int
        /// The first pause between attempts, doubled each time up to ``maximumDelay``.
        public var initialDelay: Duration
        public var maximumDelay: Duration
        /// How long one request may take.
        public var requestTimeout: TimeInterval

        public init(
            serverURL: URL, apiKey: String, environment: String, userID: String? = nil, tags: [String] = [],
            appVersion: String? = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String,
            keyStore: (any HeraldKeyStore)? = nil, maximumAttempts: Int = 8, initialDelay: Duration = .seconds(1),
            maximumDelay: Duration = .seconds(60), requestTimeout: TimeInterval = 15
        ) {
            self.serverURL = serverURL
            self.apiKey = apiKey
            self.environment = environment
            self.userID = userID
            self.tags = tags
            self.appVersion = appVersion
            self.keyStore = keyStore
            self.maximumAttempts = maximumAttempts
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
            self.requestTimeout = requestTimeout
        }
    }

    /// Why a registration did not go through.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The server refused it (4xx other than 429): the message says what to fix.
        case refused(status: Int, message: String)
        /// Every attempt failed (the last reason given).
        case gaveUp(attempts: Int, lastError: String)
        /// The configuration cannot be sent (the URL, say).
        case invalid(String)

        public var description: String {
            switch self {
            case .refused(let status, let message): "herald serve refused the registration (HTTP \(status)): \(message)"
            case .gaveUp(let attempts, let lastError): "the registration failed \(attempts) times; the last: \(lastError)"
            case .invalid(let why): why
            }
        }
    }

    private let lock = NSLock()
    private var configuration: Configuration
    private let session: URLSession
    private var lastToken: Data?
    private var lastSent: [String: String]?
    private var running: Task<Void, Never>?
    private var observers: [NSObjectProtocol] = []
    private var onResultHandler: (@Sendable ((any Error)?) -> Void)?
    /// Called after each registration ends, with `nil` on success.
    public var onResult: (@Sendable ((any Error)?) -> Void)? {
        get { lock.withLock { onResultHandler } }
        set { lock.withLock { onResultHandler = newValue } }
    }

    public init(_ configuration: Configuration, session: URLSession = .shared) {
        self.configuration = configuration
        self.session = session
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        running?.cancel()
    }

    /// Registers the token in the background (the previous registration in flight is replaced).
    public func register(deviceToken: Data) {
        lock.withLock { lastToken = deviceToken }
        start()
    }

    /// Registers the token and waits for the result.
    @discardableResult
    public func registerNow(deviceToken: Data) async throws -> Int {
        lock.withLock { lastToken = deviceToken }
        return try await send(deviceToken)
    }

    /// Changes the user or tags (sign-in, sign-out) and sends the registration again.
    public func update(userID: String?, tags: [String]? = nil) {
        lock.withLock {
            configuration.userID = userID
            if let tags { configuration.tags = tags }
        }
        start()
    }

    /// Sends the registration again if anything in it changed since the last one that went
    /// through (locale, time zone, user, tags, app version, key).
    public func refresh() {
        let changed = lock.withLock { () -> Bool in
            guard let token = lastToken else { return false }
            return lastSent != (try? fields(for: token))
        }
        if changed { start() }
    }

    /// Sends again whenever the user changes the locale or the time zone.
    public func startObservingChanges() {
        let center = NotificationCenter.default
        let names = [NSLocale.currentLocaleDidChangeNotification, Notification.Name.NSSystemTimeZoneDidChange]
        let added = names.map { name in center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in self?.refresh() } }
        lock.withLock { observers += added }
    }

    // MARK: Sending

    /// Starts a registration with the latest fields. The one in flight is cancelled and awaited
    /// first, so an older request can never reach the server after a newer one.
    private func start() {
        lock.withLock {
            let previous = running
            previous?.cancel()
            running = Task { [weak self] in
                await previous?.value
                guard let self, let token = self.lock.withLock({ self.lastToken }) else { return }
                do {
                    try await self.send(token)
                    self.report(nil)
                } catch is CancellationError {
                } catch {
                    self.report(error)
                }
            }
        }
    }

    private func report(_ error: (any Error)?) {
        let handler = lock.withLock { onResultHandler }
        handler?(error)
    }

    /// The body's fields for this token as they are now. A key store that cannot give its key
    /// stops the registration (sending none would clear the server's key).
    private func fields(for token: Data) throws -> [String: String] {
        guard let deviceToken = try? DeviceToken(bytes: token) else {
            throw Failure.invalid("the device token is \(token.count) bytes; APNs tokens are 1 to \(DeviceToken.maximumByteCount) bytes")
        }
        var fields = ["token": deviceToken.hex, "environment": configuration.environment,
                      "locale": Locale.preferredLanguages.first ?? Locale.current.identifier, "timeZone": TimeZone.current.identifier]
        fields["userId"] = configuration.userID
        fields["appVersion"] = configuration.appVersion
        fields["tags"] = configuration.tags.joined(separator: "\u{1F}")
        if let keyStore = configuration.keyStore {
            do {
                fields["encryptionKey"] = try keyStore.existingOrNewKey().publicKey.rawRepresentation.base64EncodedString()
            } catch {
                throw Failure.invalid("the device's encryption key cannot be read (\(error.localizedDescription)); the registration waits for it")
            }
        }
        return fields
    }

    @discardableResult
    private func send(_ token: Data) async throws -> Int {
        let (configuration, fields) = try lock.withLock { (self.configuration, try self.fields(for: token)) }
        let hex = fields["token"]!
        var body: [String: Any] = ["environment": configuration.environment, "tags": configuration.tags]
        for key in ["userId", "locale", "timeZone", "appVersion", "encryptionKey"] { body[key] = fields[key] }
        let url = configuration.serverURL.appendingPathComponent("v1/devices").appendingPathComponent(hex)
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        request.timeoutInterval = configuration.requestTimeout
        request.setValue("Bearer \(configuration.apiKey)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])

        var delay = configuration.initialDelay
        var lastError = ""
        for attempt in 1...max(1, configuration.maximumAttempts) {
            try Task.checkCancellation()
            do {
                let (data, response) = try await session.data(for: request)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                if (200..<300).contains(status) {
                    lock.withLock { lastSent = fields }
                    return status
                }
                let message = String(decoding: data, as: UTF8.self)
                if ![408, 429].contains(status), (400..<500).contains(status) { throw Failure.refused(status: status, message: message) }
                lastError = "HTTP \(status): \(message)"
                // The server's own pause, when it gives one (capped by the back-off's maximum).
                if let after = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After").flatMap(Double.init), after > 0 {
                    delay = min(.milliseconds(Int64(after * 1000)), configuration.maximumDelay)
                }
            } catch let failure as Failure {
                throw failure
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                lastError = error.localizedDescription
            }
            guard attempt < configuration.maximumAttempts else { break }
            try await Task.sleep(for: delay)
            delay = min(delay * 2, configuration.maximumDelay)
        }
        throw Failure.gaveUp(attempts: configuration.maximumAttempts, lastError: lastError)
    }
}
