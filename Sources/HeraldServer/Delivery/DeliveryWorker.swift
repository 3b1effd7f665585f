import Foundation
import HeraldAPNs
import HeraldCore
import HeraldStore
import Logging
import ServiceLifecycle
import Synchronization

/// Takes queued deliveries from the store in batches, sends them through HeraldAPNs and records
/// every outcome. Several batches are in flight at once; on graceful shutdown the workers stop
/// claiming, finish what they hold and give back their leases.
final class DeliveryWorker: Service, Sendable {
    let store: any HeraldStore
    let configuration: ServerConfiguration
    let routes: APNsRoutes
    let metrics: ServerMetrics
    let wake = WakeSignal()
    private let limiter = RateLimiter()
    private let apps = Mutex<[String: StoredApp]>([:])
    private let messages = Mutex<[String: PreparedMessage]>([:])
    private let webhook: FeedbackWebhook
    private var logger: Logger { configuration.logger }

    /// A notification's message with its payloads serialized once.
    struct PreparedMessage: Sendable {
        var headers: NotificationHeaders
        var fallback: [UInt8]
        var variants: [String: [UInt8]]
        /// The variants' language tags, for ``LocaleMatcher``.
        var tags: Set<String>
    }

    init(store: any HeraldStore, configuration: ServerConfiguration, routes: APNsRoutes, metrics: ServerMetrics) {
        self.store = store
        self.configuration = configuration
        self.routes = routes
        self.metrics = metrics
        webhook = FeedbackWebhook(logger: configuration.logger)
    }

    /// Forgets a cached app (its credentials or limits changed).
    func appChanged(_ id: String) {
        _ = apps.withLock { $0.removeValue(forKey: id) }
    }

    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<configuration.workers {
                group.addTask { await self.loop() }
            }
        }
        do {
            try await store.releaseLeases(owner: configuration.nodeID)
        } catch {
            logger.error("could not give back the leases: \(error)")
        }
    }

    private func loop() async {
        var batch = ClaimedBatch(deliveries: [], leaseEnds: .distantPast)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                if batch.deliveries.isEmpty {
                    batch = try await claim()
                    if batch.deliveries.isEmpty {
                        await cancelWhenGracefulShutdown { await self.wake.wait(timeout: self.configuration.pollInterval) }
                        continue
                    }
                }
                // A full batch means more may be waiting: the next one is claimed while this one
                // is on its way, so APNs never waits for the store. (Claimed rows left over at
                // shutdown are given back with the others.)
                let more = batch.deliveries.count == configuration.batchSize
                async let following = more ? claim() : ClaimedBatch(deliveries: [], leaseEnds: .distantPast)
                try await deliver(batch.deliveries, leaseEnds: batch.leaseEnds)
                batch = try await following
            } catch {
                logger.error("delivery batch failed: \(error)")
                batch = ClaimedBatch(deliveries: [], leaseEnds: .distantPast)
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Claimed deliveries and when their lease ends.
    private struct ClaimedBatch {
        var deliveries: [ClaimedDelivery]
        var leaseEnds: Date
    }

    private func claim() async throws -> ClaimedBatch {
        let now = configuration.clock.now
        let deliveries = try await store.claim(owner: configuration.nodeID, limit: configuration.batchSize, lease: configuration.lease, now: now)
        return ClaimedBatch(deliveries: deliveries, leaseEnds: now.addingTimeInterval(configuration.lease))
    }

    /// The deliveries of one batch that go through one APNs client.
    private struct Group {
        var app: StoredApp
        var environment: APNsEnvironment
        var items: [(delivery: ClaimedDelivery, notification: PushNotification)] = []
    }

    private struct GroupKey: Hashable {
        var appID: String
        var environment: APNsEnvironment
    }

    /// Sends one claimed batch and records the outcomes. Deliveries whose lease ends (within a
    /// quarter of the lease) before they can be sent are left alone: another worker or node may
    /// claim them once it has ended, and a row must not be sent by two holders.
    func deliver(_ batch: [ClaimedDelivery], leaseEnds: Date) async throws {
        let now = configuration.clock.now
        var outcomes: [DeliveryOutcome] = []
        outcomes.reserveCapacity(batch.count)
        // A batch is mostly one notification of one app, in runs: the app, the message and the
        // group are looked up when the run changes, not for every delivery.
        var groups: [GroupKey: Group] = [:]
        var run: (key: GroupKey, group: Group)?
        var lastApp: (id: String, app: StoredApp?)?
        var lastMessage: (id: String, message: PreparedMessage?)?
        for delivery in batch {
            if lastApp?.id != delivery.appID { lastApp = (delivery.appID, try await app(delivery.appID)) }
            if lastMessage?.id != delivery.notificationID { lastMessage = (delivery.notificationID, try await message(delivery.notificationID)) }
            guard let storedApp = lastApp?.app, let prepared = lastMessage?.message else {
                outcomes.append(DeliveryOutcome(id: delivery.id, state: .failed, reason: "AppOrNotificationDeleted", finishedAt: now))
                continue
            }
            if prepared.headers.expiration.hasExpired(at: now) {
                outcomes.append(DeliveryOutcome(id: delivery.id, state: .expired, finishedAt: now))
                continue
            }
            guard let token = try? DeviceToken(parsing: delivery.token) else {
                outcomes.append(DeliveryOutcome(id: delivery.id, state: .failed, reason: APNsReason.badDeviceToken.rawValue, finishedAt: now))
                continue
            }
            var headers = prepared.headers
            headers.id = DeliveryID.make(notificationID: delivery.notificationID, token: delivery.token)
            let body =
                prepared.variants.isEmpty ? prepared.fallback : LocaleMatcher.match(delivery.locale, in: prepared.tags).flatMap { prepared.variants[$0] } ?? prepared.fallback
            let key = GroupKey(appID: storedApp.id, environment: delivery.environment)
            if run?.key != key {
                if let finished = run { groups[finished.key, default: Group(app: finished.group.app, environment: finished.key.environment)].items += finished.group.items }
                run = (key, Group(app: storedApp, environment: delivery.environment))
            }
            run?.group.items.append((delivery, PushNotification(deviceToken: token, body: .raw(body), headers: headers)))
        }
        if let finished = run { groups[finished.key, default: Group(app: finished.group.app, environment: finished.key.environment)].items += finished.group.items }
        var feedback: [String: [TokenFeedback]] = [:]
        for group in groups.values {
            let client: APNsClient?
            do {
                client = try routes.client(for: group.app, environment: group.environment)
            } catch {
                logger.error("no APNs client for \(group.app.id) \(group.environment): \(error)")
                client = nil
            }
            guard let client else {
                outcomes += group.items.map { DeliveryOutcome(id: $0.delivery.id, state: .failed, reason: "NoCredentials", finishedAt: now) }
                continue
            }
            // With a rate limit the group goes in quarter-second chunks, each sent only while
            // the lease holds: a slow limit then makes progress every lease instead of never.
            let chunkSize = group.app.rateLimit.map { max(1, $0 / 4) } ?? group.items.count
            // Results come back in any order: each finds its delivery by the apns-id it asked for,
            // once (a second result for the same id is ignored).
            var positions: [NotificationID: Int] = [:]
            positions.reserveCapacity(group.items.count)
            for (position, item) in group.items.enumerated() { positions[item.notification.headers.id!] = position }
            var answered = [Bool](repeating: false, count: group.items.count)
            var sent: [ServerMetrics.Send] = []
            sent.reserveCapacity(group.items.count)
            for chunkStart in stride(from: 0, to: group.items.count, by: chunkSize) {
                let chunk = group.items[chunkStart..<min(chunkStart + chunkSize, group.items.count)]
                if let limit = group.app.rateLimit { await limiter.acquire(appID: group.app.id, count: chunk.count, perSecond: limit) }
                guard configuration.clock.now.addingTimeInterval(configuration.lease / 4) < leaseEnds else {
                    logger.warning("lease ending before the send; \(group.items.count - chunkStart) deliveries are left to be claimed again")
                    break
                }
                for try await result in client.send(all: ArraySequence(elements: chunk.map(\.notification))) {
                    guard let requested = result.requestedID, let position = positions[requested], !answered[position] else { continue }
                    answered[position] = true
                    let delivery = group.items[position].delivery
                    let finished = configuration.clock.now
                    let reason = result.reason?.rawValue ?? result.failure.map { "\($0)" }
                    outcomes.append(DeliveryOutcome(
                        id: delivery.id, state: result.isSuccess ? .sent : .failed, status: result.status, reason: reason,
                        apnsID: result.apnsID.flatMap { answered in (try? NotificationID(answered)) == requested ? nil : answered }, finishedAt: finished
                    ))
                    sent.append(ServerMetrics.Send(key: .init(status: result.status, reason: reason), seconds: result.latency.inSeconds))
                    switch result.tokenAction {
                    case .keep: break
                    case .deactivate:
                        feedback[group.app.id, default: []].append(TokenFeedback(
                            appID: group.app.id, token: delivery.token, state: .unregistered, reason: reason ?? "Unregistered",
                            timestamp: result.timestamp ?? finished
                        ))
                    case .flag:
                        feedback[group.app.id, default: []].append(TokenFeedback(
                            appID: group.app.id, token: delivery.token, state: .invalid, reason: reason ?? "BadDeviceToken", timestamp: finished
                        ))
                    }
                }
            }
            // A delivery the client gave no result for stays leased and is sent again when the
            // lease ends.
            metrics.recordSends(sent)
        }
        try await store.record(outcomes)
        for (appID, items) in feedback {
            var changed: [TokenFeedback] = []
            for item in items where try await store.applyFeedback(item) {
                changed.append(item)
                metrics.recordInvalidated(reason: item.reason)
            }
            if !changed.isEmpty, let app = try await app(appID), app.feedbackURL != nil {
                let webhook = webhook
                Task { await webhook.announce(changed, app: app) }
            }
        }
    }

    private func app(_ id: String) async throws -> StoredApp? {
        if let cached = apps.withLock({ $0[id] }) { return cached }
        guard let app = try await store.app(id: id) else { return nil }
        apps.withLock { $0[id] = app }
        return app
    }

    private func message(_ notificationID: String) async throws -> PreparedMessage? {
        if let cached = messages.withLock({ $0[notificationID] }) { return cached }
        guard let data = try await store.message(notificationID: notificationID) else { return nil }
        let message = try OutgoingMessage.decode(data)
        let prepared = PreparedMessage(
            headers: message.headers, fallback: Array(message.fallback.utf8), variants: message.variants.mapValues { Array($0.utf8) },
            tags: Set(message.variants.keys)
        )
        messages.withLock { messages in
            if messages.count >= 10_000 { messages.removeAll(keepingCapacity: true) }
            messages[notificationID] = prepared
        }
        return prepared
    }
}
