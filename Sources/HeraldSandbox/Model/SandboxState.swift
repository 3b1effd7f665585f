import Foundation
import HeraldCore
import Synchronization

/// What APNs knows and keeps: registered device tokens, provider keys, notifications stored for
/// offline devices, what each device received, counters and injected faults.
///
/// Thread-safe; every APNs connection and the admin API share one instance.
public final class SandboxState: Sendable {
    /// Called with each notification as a device receives it.
    public typealias Subscriber = @Sendable (SandboxNotification) -> Void

    struct Storage {
        var devices: [String: SandboxDevice] = [:]
        /// The one notification APNs keeps per offline device (a token belongs to one app).
        var stored: [String: SandboxNotification] = [:]
        var delivered: [String: [SandboxNotification]] = [:]
        var buckets: [String: BurstBucket] = [:]
        var counters = SandboxCounters()
        var faults = FaultPlan()
        /// ``faults``' rates read once when set: each answer with the cumulative probability
        /// up to it, so one random draw per request picks at most one.
        var faultThresholds: [(answer: FaultAnswer, upTo: Double)] = []
        var verifier: ProviderTokenVerifier
        /// Environments a key is enabled for (absent: both).
        var keyEnvironments: [String: APNsEnvironment] = [:]
        /// Keys whose use is forbidden (revoked).
        var revokedKeys: Set<String> = []
        /// The newest provider token seen per team and key.
        var currentTokens: [String: Date] = [:]
        var subscribers: [String: [UUID: Subscriber]] = [:]
        var autoAccept: Bool
    }

    let configuration: SandboxConfiguration
    private let storage: Mutex<Storage>
    /// Whether any fault is set, readable without the lock on every request.
    private let faultsSet = Atomic<Bool>(false)

    public init(configuration: SandboxConfiguration) {
        self.configuration = configuration
        self.storage = Mutex(Storage(verifier: ProviderTokenVerifier(keys: configuration.providerKeys), autoAccept: configuration.autoAccept))
    }

    var clock: any WallClock { configuration.clock }

    // MARK: Devices

    /// Registers a device token for a topic in an environment (the sandbox's environment by
    /// default); a random 32-byte token is made when none is given. Registering again after an
    /// unregistration makes the token valid again.
    @discardableResult
    public func register(token: DeviceToken? = nil, topic: String, environment: APNsEnvironment? = nil, online: Bool = true) throws(SandboxError) -> SandboxDevice {
        let trimmed = topic.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.contains(" ") else {
            throw .invalid("topic '\(topic)' must be a bundle id such as com.example.app (plus .voip etc. for those push types)")
        }
        let hex = token?.hex ?? (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        let device = SandboxDevice(token: hex, topic: trimmed, environment: environment ?? configuration.environment, online: online, registeredAt: clock.now)
        storage.withLock { $0.devices[hex] = device }
        return device
    }

    /// Unregisters a token: APNs answers 410 `Unregistered` (or `ExpiredToken`) with this time.
    public func unregister(token: String, expired: Bool = false) throws(SandboxError) -> SandboxDevice {
        let result: SandboxDevice? = storage.withLock { storage in
            guard var device = storage.devices[token] else { return nil }
            device.unregisteredAt = clock.now
            device.expired = expired
            storage.devices[token] = device
            storage.stored[token] = nil
            return device
        }
        guard let result else { throw .notFound("no device with token \(token)") }
        return result
    }

    /// Puts a device online (handing over its stored notification) or offline.
    @discardableResult
    public func setOnline(token: String, _ online: Bool) throws(SandboxError) -> SandboxDevice {
        let now = clock.now
        let outcome: (SandboxDevice, SandboxNotification?, [Subscriber])? = storage.withLock { storage in
            guard var device = storage.devices[token] else { return nil }
            device.online = online
            storage.devices[token] = device
            guard online, var notification = storage.stored.removeValue(forKey: token) else { return (device, nil, []) }
            if let expiration = notification.expiration, expiration > 0, Date(timeIntervalSince1970: TimeInterval(expiration)) < now {
                storage.counters.discarded += 1
                return (device, nil, [])
            }
            notification.deliveredAt = now
            Self.appendDelivered(notification, to: &storage, keep: configuration.deliveriesKeptPerDevice)
            storage.counters.delivered += 1
            return (device, notification, Array(storage.subscribers[token, default: [:]].values))
        }
        guard let outcome else { throw .notFound("no device with token \(token)") }
        if let notification = outcome.1 { outcome.2.forEach { $0(notification) } }
        return outcome.0
    }

    public func device(token: String) -> SandboxDevice? {
        storage.withLock { $0.devices[token] }
    }

    public var devices: [SandboxDevice] {
        storage.withLock { Array($0.devices.values) }.sorted { $0.registeredAt < $1.registeredAt }
    }

    /// What a device received, oldest first, at most the last
    /// ``SandboxConfiguration/deliveriesKeptPerDevice`` (a collapse id replaces the earlier
    /// notification).
    public func received(token: String) -> [SandboxNotification] {
        Array(storage.withLock { $0.delivered[token] ?? [] }.suffix(configuration.deliveriesKeptPerDevice))
    }

    /// What every device received (each device's kept notifications), oldest first.
    public var allReceived: [SandboxNotification] {
        let kept = configuration.deliveriesKeptPerDevice
        return storage.withLock { $0.delivered.values.flatMap { $0.suffix(kept) } }.sorted { $0.receivedAt < $1.receivedAt }
    }

    /// The notification stored for an offline device, if any.
    public func stored(token: String) -> SandboxNotification? {
        storage.withLock { $0.stored[token] }
    }

    /// Calls `subscriber` with every notification `token` receives, until the returned id is
    /// passed to ``unsubscribe(token:id:)``.
    public func subscribe(token: String, _ subscriber: @escaping Subscriber) -> UUID {
        let id = UUID()
        storage.withLock { $0.subscribers[token, default: [:]][id] = subscriber }
        return id
    }

    public func unsubscribe(token: String, id: UUID) {
        storage.withLock { $0.subscribers[token]?[id] = nil }
    }

    // MARK: Keys, faults, counters

    /// Registers a provider key; from then on tokens are verified against the registered keys.
    public func register(key: ProviderTokenVerifier.RegisteredKey, environment: APNsEnvironment? = nil) {
        storage.withLock { storage in
            storage.verifier.register(key)
            storage.keyEnvironments[key.keyID] = environment
            storage.revokedKeys.remove(key.keyID)
        }
    }

    /// Revokes a key: requests signed with it get 403 `Forbidden`.
    public func revoke(keyID: String) {
        storage.withLock { _ = $0.revokedKeys.insert(keyID) }
    }

    public var verifier: ProviderTokenVerifier { storage.withLock { $0.verifier } }

    public var faults: FaultPlan {
        get { storage.withLock { $0.faults } }
    }

    public func setFaults(_ plan: FaultPlan) throws(SandboxError) {
        try plan.validate()
        var total = 0.0
        let thresholds = plan.answerRates.filter { $0.rate > 0 }.map { rated in
            total += rated.rate
            return (answer: rated.answer, upTo: total)
        }
        storage.withLock { storage in
            storage.faults = plan
            storage.faultThresholds = thresholds
            faultsSet.store(!plan.isEmpty, ordering: .releasing)
        }
    }

    /// True when faults are injected; without them requests skip the fault lookups.
    var hasFaults: Bool { faultsSet.load(ordering: .acquiring) }

    public var counters: SandboxCounters { storage.withLock { $0.counters } }

    public var autoAccept: Bool {
        get { storage.withLock { $0.autoAccept } }
    }

    public func setAutoAccept(_ value: Bool) {
        storage.withLock { $0.autoAccept = value }
    }

    /// Forgets devices, deliveries, counters, faults and token history; keeps keys.
    public func reset() {
        storage.withLock { storage in
            storage.devices = [:]
            storage.stored = [:]
            storage.delivered = [:]
            storage.buckets = [:]
            storage.counters = SandboxCounters()
            storage.faults = FaultPlan()
            faultsSet.store(false, ordering: .releasing)
            storage.currentTokens = [:]
        }
    }

    // MARK: Used while answering requests

    func count(status: Int, reason: APNsReason?) {
        storage.withLock { $0.counters.count(status: status, reason: reason?.rawValue) }
    }

    /// Verifies a provider token with the registered keys, counting it.
    func verifyToken(authorization: String?, now: Date) -> Result<VerifiedProviderToken, ProviderTokenRejection> {
        let verifier = storage.withLock { storage in
            storage.counters.tokenVerifications += 1
            return storage.verifier
        }
        return verifier.verify(authorization: authorization, now: now)
    }

    /// The next injected fault status, if any.
    func nextFault() -> (answer: FaultAnswer?, latency: Int, goAwayAfter: Int?, resetAfter: Int?) {
        storage.withLock { storage in
            let plan = storage.faults
            var answer: FaultAnswer?
            if !storage.faults.script.isEmpty {
                answer = storage.faults.script.removeFirst()
            } else if !storage.faultThresholds.isEmpty {
                let draw = Double.random(in: 0..<1)
                answer = storage.faultThresholds.first { draw < $0.upTo }?.answer
            }
            return (answer, plan.latencyMilliseconds, plan.goAwayAfterStreams, plan.resetAfterStreams)
        }
    }

    /// Checks a key's status for this sandbox's environment.
    func keyProblem(keyID: String) -> APNsReason? {
        storage.withLock { storage in
            if storage.revokedKeys.contains(keyID) { return .forbidden }
            if let environment = storage.keyEnvironments[keyID], environment != configuration.environment {
                return .badEnvironmentKeyInToken
            }
            return nil
        }
    }

    /// Records a team's provider token; false when it replaces the newest one sooner than
    /// 20 minutes after that one was issued (`TooManyProviderTokenUpdates`).
    func noteProviderToken(_ token: VerifiedProviderToken) -> Bool {
        let identity = token.teamID + "/" + token.keyID
        return storage.withLock { storage in
            guard let current = storage.currentTokens[identity] else {
                storage.currentTokens[identity] = token.issuedAt
                return true
            }
            if token.issuedAt <= current { return true }
            if token.issuedAt.timeIntervalSince(current) < ProviderTokenSource.minimumRefreshInterval { return false }
            storage.currentTokens[identity] = token.issuedAt
            return true
        }
    }

    /// The device part of answering a push: registration, topic, environment, the burst limit,
    /// then delivery or storage. Returns the failure reason (and 410 time), or `nil` when accepted.
    func accept(_ notification: SandboxNotification, bundleTopic topic: String) -> (reason: APNsReason, timestamp: Date?)? {
        let now = notification.receivedAt
        var subscribers: [Subscriber] = []
        var delivered: SandboxNotification?
        let failure: (APNsReason, Date?)? = storage.withLock { storage in
            var device: SandboxDevice
            if let known = storage.devices[notification.token] {
                device = known
            } else if storage.autoAccept {
                device = SandboxDevice(token: notification.token, topic: topic, environment: configuration.environment, registeredAt: now)
                storage.devices[notification.token] = device
            } else {
                return (.badDeviceToken, nil)
            }
            if device.environment != configuration.environment { return (.badDeviceToken, nil) }
            if let unregistered = device.unregisteredAt { return (device.expired ? .expiredToken : .unregistered, unregistered) }
            if device.topic != topic {
                if storage.autoAccept { device.topic = topic; storage.devices[device.token] = device } else { return (.deviceTokenNotForTopic, nil) }
            }
            // Too many pushes in a row to one token.
            if configuration.burstLimit != .max {
                var bucket = storage.buckets[device.token] ?? BurstBucket(capacity: configuration.burstLimit, now: now)
                let allowed = bucket.take(at: now, capacity: configuration.burstLimit, window: configuration.burstWindow)
                storage.buckets[device.token] = bucket
                if !allowed { return (.tooManyRequests, nil) }
            }

            storage.counters.count(status: 200, reason: nil)
            if device.online {
                var copy = notification
                copy.deliveredAt = now
                Self.appendDelivered(copy, to: &storage, keep: configuration.deliveriesKeptPerDevice)
                storage.counters.delivered += 1
                delivered = copy
                subscribers = Array(storage.subscribers[device.token, default: [:]].values)
            } else if notification.expiration == 0 {
                storage.counters.discarded += 1
            } else {
                if storage.stored[device.token] != nil { storage.counters.discarded += 1 }
                storage.stored[device.token] = notification
                storage.counters.stored += 1
            }
            return nil
        }
        if let delivered { subscribers.forEach { $0(delivered) } }
        return failure
    }

    private static func appendDelivered(_ notification: SandboxNotification, to storage: inout Storage, keep: Int) {
        // Mutated in place: copying the list out of the dictionary would copy it on every push.
        storage.delivered[notification.token, default: []].appendTrimmed(notification, keep: keep)
    }
}

extension Array where Element == SandboxNotification {
    /// Appends, replacing an earlier notification with the same collapse id, and trims in batches
    /// so a busy device costs O(1) per notification.
    mutating func appendTrimmed(_ notification: SandboxNotification, keep: Int) {
        if let collapseID = notification.collapseID { removeAll { $0.collapseID == collapseID } }
        append(notification)
        if count >= keep * 2 { removeFirst(count - keep) }
    }
}
