import Foundation
import HeraldAPNs
import HeraldCore
import HeraldStore
import Logging
import ServiceLifecycle
import Synchronization

/// Takes queued deliveries from the store in batches, sends them through HeraldAPNs and records
/// every outcome as it comes in (``OutcomeRecorder``). Several batches are in flight at once.
///
/// Faults: a delivery that fails for a passing reason (no answer, 429, 500, 503) stays queued
/// and is retried with back-off (``RetrySchedule``); a route to APNs that keeps failing is
/// paused by its circuit breaker (``APNsCircuits``) and probed until it answers. A heartbeat
/// renews this node's leases, so they can be short: a dead node's deliveries are taken over
/// within a lease. On graceful shutdown the workers stop claiming, finish what they hold,
/// record it and give back their leases.
final class DeliveryWorker: Service, Sendable {
    let store: any HeraldStore
    let configuration: ServerConfiguration
    let routes: APNsRoutes
    let metrics: ServerMetrics
    let circuits = APNsCircuits()
    let recorder: OutcomeRecorder
    /// Sent and not yet recorded, at most: APNs connections × streams.
    let window: SendWindow
    let wake = WakeSignal()
    /// Apps as read lately: another node may change one (credentials, rate limit), so an entry
    /// is read again after ``appCacheLifetime``.
    private let apps = Mutex<[String: (app: StoredApp, read: ContinuousClock.Instant)]>([:])
    static let appCacheLifetime = Duration.seconds(5)
    private let messages = Mutex<[String: PreparedMessage]>([:])
    /// Per notification: whether it was live (not cancelled, not deleted) when last asked.
    private let liveness = Mutex<[String: (live: Bool, checked: ContinuousClock.Instant)]>([:])
    /// The leases of the batches the workers hold (claimed, not yet done with): the heartbeat
    /// renews their rows and the rows whose outcome is not written yet, and no other, so a row
    /// a failed batch dropped is taken again when its lease ends.
    private let leases = LeaseBook()
    let webhooks: WebhookSender
    private var logger: Logger { configuration.logger }
    /// Workers do not claim while more outcomes than this wait to be written.
    var recordBacklogLimit: Int { 2 * configuration.workers * configuration.batchSize }

    /// A notification's message with its payloads serialized once.
    struct PreparedMessage: Sendable {
        var headers: NotificationHeaders
        var fallback: [UInt8]
        var variants: [String: [UInt8]]
        /// The variants' language tags, for ``LocaleMatcher``.
        var tags: Set<String>
        /// The alert to seal for each device (end to end), if the message has one.
        var seal: SealedAlert?
    }

    init(store: any HeraldStore, configuration: ServerConfiguration, routes: APNsRoutes, metrics: ServerMetrics) {
        self.store = store
        self.configuration = configuration
        self.routes = routes
        self.metrics = metrics
        let window = SendWindow(size: configuration.sendWindow ?? configuration.apnsConnections * configuration.apnsStreams)
        self.window = window
        recorder = OutcomeRecorder(store: store, owner: configuration.nodeID, logger: configuration.logger, clock: configuration.clock, window: window)
        webhooks = WebhookSender(store: store, configuration: configuration)
    }

    /// Forgets a cached app (its credentials or limits changed).
    func appChanged(_ id: String) {
        _ = apps.withLock { $0.removeValue(forKey: id) }
    }

    func run() async throws {
        await withTaskGroup(of: Void.self) { services in
            services.addTask { await self.recorder.run() }
            services.addTask { await self.heartbeat() }
            services.addTask { await self.finishStalledFanOuts() }
            await withTaskGroup(of: Void.self) { workers in
                for _ in 0..<configuration.workers {
                    workers.addTask { await self.loop() }
                }
            }
            // Every worker has stopped: write what they were answered, then stop beating.
            recorder.stop()
            await services.next()
            services.cancelAll()
        }
        do {
            try await store.releaseLeases(owner: configuration.nodeID)
        } catch {
            logger.error("could not give back the leases: \(error)")
        }
    }

    /// Looks every half lease for fan-outs that made no progress for a whole lease (their node
    /// stopped mid-way) and finishes them; the first look is at once, for those left while no
    /// node ran.
    private func finishStalledFanOuts() async {
        var failing = false
        while !Task.isCancelled {
            do {
                let finished = try await store.finishStalledFanOuts(stalledFor: configuration.lease)
                if finished > 0 { logger.notice("finished fan-outs another node left unfinished", metadata: ["count": "\(finished)"]) }
                if failing { logger.notice("looking for unfinished fan-outs works again") }
                failing = false
            } catch where !Task.isCancelled {
                if !failing { logger.warning("cannot look for unfinished fan-outs: \(StoreError.describe(error))") }
                failing = true
            } catch {
                return
            }
            try? await Task.sleep(for: .milliseconds(Int(configuration.lease * 500)))
        }
    }

    /// Renews this node's leases every quarter lease while it runs, counted from the start of
    /// the previous renewal (a slow one is followed at once), so that a renewal taking up to half
    /// a lease still lands in time.
    private func heartbeat() async {
        let every = Duration.milliseconds(Int(configuration.lease * 250))
        var next = ContinuousClock.now + every
        var failing = false
        var slow = false
        while !Task.isCancelled {
            try? await Task.sleep(until: next)
            if Task.isCancelled { return }
            let began = ContinuousClock.now
            next = began + every
            let started = configuration.clock.now
            let until = started.addingTimeInterval(configuration.lease)
            let running = leases.running(at: started)
            let ids = Array(Set(running.flatMap(\.ids)).union(recorder.unwrittenIDs))
            do {
                try await store.renewLeases(owner: configuration.nodeID, ids: ids, until: until)
                leases.renewed(running, to: until, renewedAt: configuration.clock.now)
                if failing { logger.notice("leases are renewed again") }
                failing = false
                let took = ContinuousClock.now - began
                if took > every, !slow {
                    logger.warning(
                        "renewing this node's leases took \(took); batches whose lease ended first stop sending and are taken again",
                        metadata: ["lease": "\(configuration.lease)"]
                    )
                }
                slow = took > every
            } catch {
                if !failing { logger.warning("cannot renew this node's leases; sending stops when they end", metadata: ["error": "\(error)"]) }
                failing = true
            }
        }
    }

    private func loop() async {
        var batch = ClaimedBatch.empty
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                if batch.deliveries.isEmpty {
                    // Outcomes the store has not taken yet hold their rows: claiming more would
                    // only send more that cannot be recorded.
                    if recorder.backlog > recordBacklogLimit {
                        await cancelWhenGracefulShutdown { try? await Task.sleep(for: .milliseconds(100)) }
                        continue
                    }
                    batch = try await claim()
                    if batch.deliveries.isEmpty {
                        await cancelWhenGracefulShutdown { await self.wake.wait(timeout: self.configuration.pollInterval) }
                        continue
                    }
                }
                // A full batch means more may be waiting: the next one is claimed while this one
                // is on its way, so APNs never waits for the store. (Claimed rows left over at
                // shutdown are given back with the others.)
                let more = batch.deliveries.count == configuration.batchSize && recorder.backlog <= recordBacklogLimit
                async let following = more ? claim() : ClaimedBatch.empty
                do {
                    try await deliver(batch)
                } catch {
                    logger.error("delivery batch failed; its unsent deliveries are taken again when their lease ends: \(StoreError.describe(error))")
                    try? await Task.sleep(for: .seconds(1))
                }
                leases.end(batch.lease)
                batch = try await following
            } catch {
                logger.error("cannot claim deliveries: \(StoreError.describe(error))")
                batch = .empty
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Claimed deliveries and their lease.
    struct ClaimedBatch: Sendable {
        var deliveries: [ClaimedDelivery]
        var lease: LeaseBook.Lease

        static let empty = ClaimedBatch(deliveries: [], lease: LeaseBook.Lease(ids: [], until: .distantPast))
    }

    private func claim() async throws -> ClaimedBatch {
        // The lease runs from before the claim was sent, as the store counts it.
        let now = configuration.clock.now
        let deliveries = try await store.claim(owner: configuration.nodeID, limit: configuration.batchSize, lease: configuration.lease, now: now)
        guard !deliveries.isEmpty else { return .empty }
        return ClaimedBatch(deliveries: deliveries, lease: leases.start(ids: deliveries.map(\.id), until: now.addingTimeInterval(configuration.lease)))
    }

    /// The deliveries of one batch that go through one APNs client.
    private struct Group {
        var app: StoredApp
        var environment: APNsEnvironment
        var items: [(delivery: ClaimedDelivery, notification: PushNotification, expiration: Expiration)] = []
        var route: APNsCircuits.Route { .init(appID: app.id, environment: environment) }
    }

    private struct GroupKey: Hashable {
        var appID: String
        var environment: APNsEnvironment
    }

    /// Sends one claimed batch; each outcome goes to the recorder as its answer comes. Deliveries
    /// whose lease ends (within a quarter of the lease) before they can be sent are left alone:
    /// another worker or node may claim them once it has ended, and a row must not be sent by two
    /// holders.
    func deliver(_ batch: ClaimedBatch) async throws {
        let now = configuration.clock.now
        var settled: [DeliveryOutcome] = []
        // A batch is mostly one notification of one app, in runs: the app, the message and the
        // group are looked up when the run changes, not for every delivery.
        var groups: [GroupKey: Group] = [:]
        var run: (key: GroupKey, group: Group)?
        var lastApp: (id: String, app: StoredApp?)?
        var lastMessage: (id: String, message: PreparedMessage?)?
        // Devices' keys for sealed messages, read once per notification in the batch.
        var sealKeys: [String: [String: String]] = [:]
        // A row whose outcome this node has not written yet (the store was away long enough for
        // its lease to end) was sent already: it must not go again.
        let unwritten = recorder.unwritten(among: batch.deliveries.map(\.id))
        for delivery in batch.deliveries where !unwritten.contains(delivery.id) {
            if lastApp?.id != delivery.appID { lastApp = (delivery.appID, try await app(delivery.appID)) }
            if lastMessage?.id != delivery.notificationID { lastMessage = (delivery.notificationID, try await message(delivery.notificationID)) }
            guard let storedApp = lastApp?.app, let prepared = lastMessage?.message else {
                settled.append(DeliveryOutcome(id: delivery.id, state: .failed, reason: "AppOrNotificationDeleted", finishedAt: now))
                continue
            }
            if prepared.headers.expiration.hasExpired(at: now) {
                settled.append(DeliveryOutcome(id: delivery.id, state: .expired, finishedAt: now))
                continue
            }
            guard let token = try? DeviceToken(parsing: delivery.token) else {
                settled.append(DeliveryOutcome(id: delivery.id, state: .failed, reason: APNsReason.badDeviceToken.rawValue, finishedAt: now))
                continue
            }
            var headers = prepared.headers
            headers.id = DeliveryID.make(notificationID: delivery.notificationID, token: delivery.token)
            var body =
                prepared.variants.isEmpty ? prepared.fallback : LocaleMatcher.match(delivery.locale, in: prepared.tags).flatMap { prepared.variants[$0] } ?? prepared.fallback
            if let seal = prepared.seal {
                if sealKeys[delivery.notificationID] == nil {
                    let tokens = batch.deliveries.filter { $0.notificationID == delivery.notificationID }.map(\.token)
                    sealKeys[delivery.notificationID] = try await store.encryptionKeys(appID: delivery.appID, tokens: tokens)
                }
                if let key = sealKeys[delivery.notificationID]?[delivery.token] {
                    if let sealed = Self.sealed(body, seal: seal, key: key) {
                        body = sealed
                    } else {
                        logger.warning("the alert could not be sealed for a device; it gets the fallback text",
                                       metadata: ["notification": "\(delivery.notificationID)", "token": "\(delivery.token.prefix(8))…"])
                    }
                }
            }
            let key = GroupKey(appID: storedApp.id, environment: delivery.environment)
            if run?.key != key {
                if let finished = run { groups[finished.key, default: Group(app: finished.group.app, environment: finished.key.environment)].items += finished.group.items }
                run = (key, Group(app: storedApp, environment: delivery.environment))
            }
            run?.group.items.append((delivery, PushNotification(deviceToken: token, body: .raw(body), headers: headers), prepared.headers.expiration))
        }
        if let finished = run { groups[finished.key, default: Group(app: finished.group.app, environment: finished.key.environment)].items += finished.group.items }
        recorder.add(settled)
        for group in groups.values {
            try await send(group, batch: batch)
        }
    }

    /// Sends a group's deliveries, as far as its circuit, rate limit and lease allow.
    private func send(_ group: Group, batch: ClaimedBatch) async throws {
        let client: APNsClient?
        switch routes.route(for: group.app, environment: group.environment) {
        case .client(let found):
            client = found
        case .unavailable(let why):
            logger.warning("not sent: \(why)", metadata: ["app": "\(group.app.id)", "environment": "\(group.environment)"])
            client = nil
        }
        guard let client else {
            let now = configuration.clock.now
            recorder.add(group.items.map { DeliveryOutcome(id: $0.delivery.id, state: .failed, reason: "NoCredentials", finishedAt: now) })
            metrics.recordSends(group.items.map { _ in ServerMetrics.Send(key: .init(status: nil, reason: "NoCredentials"), seconds: 0) })
            return
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
        var feedback: [TokenFeedback] = []
        var start = 0
        while start < group.items.count {
            let now = configuration.clock.now
            let end: Int
            var probing = false
            switch circuits.permit(group.route, now: now) {
            case .wait(let until):
                // APNs is known to be unreachable: the rest waits, unsent and not counted as
                // attempted, until the circuit is probed again; a delivery that may not wait
                // that long (its expiration, or the retry schedule's maximum age) ends here.
                let reason = circuits.lastReason(group.route) ?? "ConnectionFailed"
                let due = until.addingTimeInterval(Double.random(in: 0...0.5))
                var waiting = 0
                recorder.add(group.items[start...].map { item in
                    if due <= configuration.retry.deadline(queuedAt: item.delivery.queuedAt, expiration: item.expiration) {
                        waiting += 1
                        return .retry(id: item.delivery.id, at: due, reason: reason, now: now, attempted: false)
                    }
                    let state: DeliveryState = item.expiration.hasExpired(at: due) ? .expired : .failed
                    return DeliveryOutcome(id: item.delivery.id, state: state, reason: reason, finishedAt: now)
                })
                metrics.recordRetries(reason: reason, count: waiting)
                return
            case .probe:
                logger.info("probing APNs", metadata: ["app": "\(group.app.id)", "environment": "\(group.environment)"])
                end = start + 1
                probing = true
            case .send:
                end = min(start + chunkSize, group.items.count)
            }
            // A notification cancelled since its rows were claimed: the rest of them are not
            // sent (its rows are cancelled in the store already; the outcome ends their lease).
            let cancelled = await cancelledNotifications(among: group.items[start..<end], appID: group.app.id)
            var chunk = Array(group.items[start..<end].indices)
            if !cancelled.isEmpty {
                let now = configuration.clock.now
                let dropped = chunk.filter { cancelled.contains(group.items[$0].delivery.notificationID) }
                for position in dropped { answered[position] = true }
                recorder.add(dropped.map { DeliveryOutcome(id: group.items[$0].delivery.id, state: .cancelled, finishedAt: now, attempted: false) })
                chunk.removeAll { cancelled.contains(group.items[$0].delivery.notificationID) }
            }
            if let limit = group.app.rateLimit, !chunk.isEmpty {
                // Paced in real time, whatever clock the server reads for its records: the wait
                // that follows is a real one.
                let wait = try await store.reserveSends(appID: group.app.id, count: chunk.count, perSecond: limit, now: SystemClock().now)
                if wait > 0 { try? await Task.sleep(for: .milliseconds(Int((wait * 1000).rounded(.up)))) }
            }
            // One bulk send for the chunk; each notification takes a permit of the send window
            // as the client pulls it (so what is sent and not yet recorded stays within the
            // window), and the feed stops when the lease is about to end.
            let clock = configuration.clock
            let margin = configuration.lease / 4
            let lease = batch.lease
            let feed = WindowedFeed(notifications: chunk.map { group.items[$0].notification }, window: window) {
                clock.now.addingTimeInterval(margin) < lease.until && !Task.isShuttingDownGracefully
            }
            var sent: [ServerMetrics.Send] = []
            sent.reserveCapacity(end - start)
            var answeredHere = 0
            for try await result in client.send(all: feed) {
                guard let requested = result.requestedID, let position = positions[requested], !answered[position] else { continue }
                answered[position] = true
                answeredHere += 1
                let item = group.items[position]
                let (outcome, change) = judge(
                    result, item.delivery, expiration: item.expiration, route: group.route, requested: requested, probe: probing
                )
                // Each outcome goes to the recorder as it comes, with its permit: held here, a
                // permit could wait for a result that cannot come while the window is full.
                recorder.add(outcome)
                if let change { feedback.append(change) }
                sent.append(ServerMetrics.Send(key: .init(status: result.status, reason: outcome.reason), seconds: result.latency.inSeconds))
            }
            // A delivery the client gave no result for stays leased and is sent again when the
            // lease ends; its permit goes back now.
            window.release(feed.progress.yielded - answeredHere)
            metrics.recordSends(sent)
            if feed.progress.stopped {
                logger.warning("lease ending or stopping before the send; \(group.items.count - start - feed.progress.yielded) deliveries are left to be claimed again")
                break
            }
            start = end
        }
        await apply(feedback, appID: group.app.id)
    }

    /// Which of the items' notifications were cancelled (or deleted). What the store said is
    /// kept for ``cancellationCheckInterval`` per notification, so a broadcast costs the store
    /// about one small query a second, not one per chunk; a cancel through this node's API is
    /// known at once (``notificationCancelled(_:)``). A store that does not answer cancels
    /// nothing: the rows' outcomes are what APNs says.
    private func cancelledNotifications(among items: ArraySlice<(delivery: ClaimedDelivery, notification: PushNotification, expiration: Expiration)>, appID: String) async -> Set<String> {
        var ids: [String] = []
        for item in items where ids.last != item.delivery.notificationID && !ids.contains(item.delivery.notificationID) {
            ids.append(item.delivery.notificationID)
        }
        let now = ContinuousClock.now
        var cancelled: Set<String> = []
        let stale = liveness.withLock { known in
            ids.filter { id in
                guard let entry = known[id], now - entry.checked < Self.cancellationCheckInterval else { return true }
                if !entry.live { cancelled.insert(id) }
                return false
            }
        }
        guard !stale.isEmpty, let live = try? await store.liveNotifications(stale) else { return cancelled }
        liveness.withLock { known in
            if known.count > 10_000 { known.removeAll(keepingCapacity: true) }
            for id in stale { known[id] = (live.contains(id), now) }
        }
        return cancelled.union(Set(stale).subtracting(live))
    }

    /// How long what the store said about a notification's cancellation is trusted.
    static let cancellationCheckInterval = Duration.seconds(1)

    /// A notification was cancelled through this node: its deliveries in flight stop at the
    /// next chunk.
    func notificationCancelled(_ id: String) {
        liveness.withLock { $0[id] = (false, .now) }
    }

    /// What an APNs result makes of a delivery: sent, failed for good, or queued again for a
    /// retry (a passing failure); and the token's new state, if the answer changes it.
    private func judge(
        _ result: APNsResult, _ delivery: ClaimedDelivery, expiration: Expiration, route: APNsCircuits.Route, requested: NotificationID,
        probe: Bool
    ) -> (DeliveryOutcome, TokenFeedback?) {
        let now = configuration.clock.now
        if result.isSuccess {
            circuits.succeeded(route)
            let apnsID = result.apnsID.flatMap { answered in (try? NotificationID(answered)) == requested ? nil : answered }
            return (DeliveryOutcome(id: delivery.id, state: .sent, status: result.status, apnsID: apnsID, finishedAt: now), nil)
        }
        let reason = result.reason?.rawValue ?? result.failure?.reasonCode ?? "Unknown"
        let transient: Bool
        if let status = result.status {
            // An answer: APNs' reason says whether sending again can succeed, and whether APNs
            // itself is unwell (a failure for the route's circuit).
            let advice = (result.reason ?? APNsReason(rawValue: "")).retry(status: status)
            transient = advice != .never
            if APNsReason.isServerTrouble(status: status) {
                noteFailure(route, reason: reason, detail: "HTTP \(status)", probe: probe)
            } else {
                circuits.succeeded(route)
            }
        } else {
            transient = result.failure?.isTransient ?? true
            noteFailure(route, reason: reason, detail: result.failure?.description ?? "no answer", probe: probe)
        }
        if transient {
            if let next = configuration.retry.nextAttempt(
                after: delivery.attempts, queuedAt: delivery.queuedAt, expiration: expiration, now: now, jitter: Double.random(in: 0...1)
            ) {
                metrics.recordRetries(reason: reason, count: 1)
                return (.retry(id: delivery.id, at: next, reason: reason, status: result.status, now: now), nil)
            }
            if expiration.hasExpired(at: now.addingTimeInterval(1)) {
                return (DeliveryOutcome(id: delivery.id, state: .expired, status: result.status, reason: reason, finishedAt: now), nil)
            }
        }
        let outcome = DeliveryOutcome(id: delivery.id, state: .failed, status: result.status, reason: reason, finishedAt: now)
        switch result.tokenAction {
        case .keep:
            return (outcome, nil)
        case .deactivate:
            return (outcome, TokenFeedback(
                appID: delivery.appID, token: delivery.token, state: .unregistered, reason: reason, timestamp: result.timestamp ?? now
            ))
        case .flag:
            return (outcome, TokenFeedback(appID: delivery.appID, token: delivery.token, state: .invalid, reason: reason, timestamp: now))
        }
    }

    /// Counts a failure against the route; the log says when its circuit opens, with the detail
    /// that reports leave out.
    private func noteFailure(_ route: APNsCircuits.Route, reason: String, detail: String, probe: Bool) {
        if circuits.failed(route, reason: reason, now: configuration.clock.now, probe: probe) {
            logger.warning(
                "APNs unreachable; deliveries wait and are retried",
                metadata: ["app": "\(route.appID)", "environment": "\(route.environment)", "reason": "\(reason)", "detail": "\(detail)"]
            )
        }
    }

    /// Applies APNs' verdicts on tokens and announces the changes to the app's webhook. A store
    /// failure here is logged: the deliveries themselves are recorded either way.
    private func apply(_ feedback: [TokenFeedback], appID: String) async {
        guard !feedback.isEmpty else { return }
        do {
            var changed: [TokenFeedback] = []
            for item in feedback where try await store.applyFeedback(item) {
                changed.append(item)
                metrics.recordInvalidated(reason: item.reason)
            }
            if !changed.isEmpty, let app = try await app(appID), app.feedbackURL != nil {
                try await webhooks.announce(changed, app: app)
            }
        } catch {
            logger.error("could not apply token feedback: \(error)", metadata: ["app": "\(appID)", "tokens": "\(feedback.count)"])
        }
    }

    private func app(_ id: String) async throws -> StoredApp? {
        if let cached = apps.withLock({ $0[id] }), ContinuousClock.now - cached.read < Self.appCacheLifetime { return cached.app }
        guard let app = try await store.app(id: id) else { return nil }
        apps.withLock { $0[id] = (app, .now) }
        return app
    }

    /// The payload with the alert sealed for one device's key; `nil` when the key cannot be
    /// used (the device then gets the fallback text only).
    static func sealed(_ body: [UInt8], seal: SealedAlert, key: String) -> [UInt8]? {
        guard var payload = try? Payload(decoding: body), let publicKey = try? SealedAlert.publicKey(base64: key),
              let sealed = try? seal.seal(to: publicKey) else { return nil }
        payload.json[SealedAlert.payloadKey] = .string(sealed)
        return payload.serialized
    }

    private func message(_ notificationID: String) async throws -> PreparedMessage? {
        if let cached = messages.withLock({ $0[notificationID] }) { return cached }
        guard let data = try await store.message(notificationID: notificationID) else { return nil }
        let message = try OutgoingMessage.decode(data)
        let prepared = PreparedMessage(
            headers: message.headers, fallback: Array(message.fallback.utf8), variants: message.variants.mapValues { Array($0.utf8) },
            tags: Set(message.variants.keys), seal: message.seal
        )
        messages.withLock { messages in
            if messages.count >= 10_000 { messages.removeAll(keepingCapacity: true) }
            messages[notificationID] = prepared
        }
        return prepared
    }
}
