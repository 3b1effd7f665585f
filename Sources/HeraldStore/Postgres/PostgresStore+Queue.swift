import Foundation
import HeraldCore
import PostgresNIO

extension PostgresStore {
    /// Stores the notification, then queues its audience in chunks of
    /// ``PostgresSchema/fanOutChunk`` devices (in token order), each its own transaction, so
    /// workers start on the first chunk while the rest is queued; it returns once every chunk is
    /// queued. Until then the notification's row keeps the last token queued (`fanout_after`):
    /// a fan-out left unfinished by a node that stopped is finished by another
    /// (``finishStalledFanOuts(stalledFor:)``).
    ///
    /// Once the notification is stored it goes out whatever happens to this call: a chunk that
    /// fails leaves it `queuing` (another node finishes it) rather than failing the call, which
    /// would invite a second send; a repeat with the same idempotency key while it is queued
    /// helps finish it and answers with the whole audience.
    public func enqueue(_ notification: StoredNotification, idempotentSince: Date) async throws -> EnqueueOutcome {
        if let existing = try await store(notification, idempotentSince: idempotentSince) {
            guard existing.queuing, let finished = try? await fanOut(existing.id) else { return .existing(existing) }
            return .existing(finished)
        }
        do {
            return .created(try await fanOut(notification.id) ?? notification)
        } catch {
            logger.warning(
                "the audience of a stored notification is not all queued yet; a node finishes it after a lease",
                metadata: ["notification": "\(notification.id)", "error": "\(StoreError.describe(error))"]
            )
            var queuing = notification
            queuing.queuing = true
            return .created(queuing)
        }
    }

    /// Inserts the notification with its fan-out to do; returns the earlier one instead when its
    /// idempotency key was used since `idempotentSince`.
    func store(_ notification: StoredNotification, idempotentSince: Date) async throws -> StoredNotification? {
        let logger = logger
        return try await client.withTransaction(logger: logger) { connection in
            if let key = notification.idempotencyKey {
                // Two nodes given the same key at once: the second waits for the first's commit.
                try await connection.query(
                    .sql("SELECT pg_advisory_xact_lock(hashtext($1))", [.text(notification.appID + "\u{1F}" + key)]), logger: logger
                )
                let earlier = try await connection.query(
                    .sql(
                        """
                        SELECT body, cancelled_at, fanout_after, fanout_queued FROM notifications
                        WHERE app_id = $1 AND idempotency_key = $2 AND created_at >= $3 ORDER BY created_at DESC LIMIT 1
                        """,
                        [.text(notification.appID), .text(key), .double(idempotentSince.timeIntervalSince1970)]
                    ), logger: logger
                ).collect()
                if let row = earlier.first {
                    return try Self.notification(from: row)
                }
            }
            try await connection.query(
                .sql(
                    """
                    INSERT INTO notifications (id, app_id, idempotency_key, created_at, body, fanout_after, fanout_at, fanout_queued)
                    VALUES ($1, $2, $3, $4, $5, '', extract(epoch FROM clock_timestamp()), 0)
                    """,
                    [
                        .text(notification.id), .text(notification.appID), .text(notification.idempotencyKey),
                        .double(notification.createdAt.timeIntervalSince1970), .text(try StoreCoding.encode(notification)),
                    ]
                ), logger: logger
            )
            return nil
        }
    }

    /// Queues the rest of a notification's audience, a chunk at a time; returns it as stored
    /// once its audience is queued (nil when it no longer exists).
    func fanOut(_ id: String, chunk: Int = PostgresSchema.fanOutChunk) async throws -> StoredNotification? {
        while true {
            // Stopping leaves the cursor for another node to go on from.
            try Task.checkCancellation()
            switch try await queueChunk(of: id, size: chunk) {
            case .more: continue
            case .finished(let stored): return stored
            case .gone: return nil
            }
        }
    }

    /// What one chunk of a fan-out left to do.
    enum FanOutStep {
        case more
        case finished(StoredNotification)
        case gone
    }

    /// Queues the next `size` devices of a notification's audience after its cursor, in one
    /// transaction that holds the notification's row: fan-outs of the same notification by two
    /// nodes (one taking over from a node thought gone) go one chunk after the other, each from
    /// where the last one ended, and a cancel (which takes the row first) stops the audience
    /// from growing.
    func queueChunk(of id: String, size: Int) async throws -> FanOutStep {
        let logger = logger
        return try await client.withTransaction(logger: logger) { connection in
            guard let row = try await connection.query(
                .sql(
                    """
                    SELECT body, fanout_after, fanout_queued, cancelled_at, EXISTS (SELECT 1 FROM deleted_apps a WHERE a.id = n.app_id)
                    FROM notifications n WHERE n.id = $1 FOR UPDATE OF n
                    """,
                    [.text(id)]
                ), logger: logger
            ).collect().first else { return .gone }
            let (body, after, queuedBefore, cancelled, appDeleted) = try row.decode((String, String?, Int64, Double?, Bool).self)
            var stored = try StoreCoding.decode(StoredNotification.self, from: body)
            stored.cancelledAt = cancelled.map(Date.init(timeIntervalSince1970:))
            guard let after else { return .finished(stored) }
            var added: Int64 = 0
            var last: String?
            // A cancelled notification, or one of a deleted app, stops growing.
            if cancelled == nil && !appDeleted {
                let filter = AudienceFilter(appID: stored.appID, audience: stored.audience, firstIndex: 4) { "$\($0)" }
                let inserted = try await connection.query(
                    .sql(
                        """
                        WITH queued AS (
                            INSERT INTO deliveries (notification_id, app_id, token, environment, locale, state, attempts, queued_at)
                            SELECT $1, d.app_id, d.token, d.environment, d.locale, 'queued', 0, $2 FROM devices d
                            WHERE \(filter.condition) AND d.token > $3
                            ORDER BY d.token LIMIT \(max(1, size)) RETURNING id, token),
                        batches AS (
                            INSERT INTO delivery_batches (notification_id, first_id, last_id, due_at, queued, queued_at)
                            SELECT $1, MIN(id), MAX(id), 0, COUNT(*), $2 FROM (SELECT id, (row_number() OVER (ORDER BY id) - 1) / \(PostgresSchema.batchRows) AS chunk FROM queued) AS numbered
                            GROUP BY chunk ORDER BY chunk RETURNING 1)
                        SELECT COUNT(*), MAX(token) FROM queued
                        """,
                        [.text(id), .double(stored.createdAt.timeIntervalSince1970), .text(after)] + filter.arguments.map { .text($0) }
                    ), logger: logger
                ).collect()
                (added, last) = try inserted.first?.decode((Int64, String?).self) ?? (0, nil)
            }
            if added >= max(1, size), let last {
                try await connection.query(
                    .sql(
                        """
                        UPDATE notifications SET fanout_after = $2, fanout_queued = fanout_queued + $3, fanout_at = extract(epoch FROM clock_timestamp())
                        WHERE id = $1
                        """,
                        [.text(id), .text(last), .int(added)]
                    ), logger: logger
                )
                return .more
            }
            // The last chunk (or a cancel): the audience is what was queued.
            stored.audienceSize = Int(queuedBefore + added)
            var written = stored
            written.cancelledAt = nil
            try await connection.query(
                .sql(
                    "UPDATE notifications SET body = $2, fanout_after = NULL, fanout_queued = fanout_queued + $3 WHERE id = $1",
                    [.text(id), .text(try StoreCoding.encode(written)), .int(added)]
                ), logger: logger
            )
            return .finished(stored)
        }
    }

    /// Finishes the fan-outs that made no progress for `stalledFor` seconds (by PostgreSQL's
    /// clock): their node stopped or lost the database mid-way. Safe while that node still
    /// works on one: chunks of a notification go one after the other (see `queueChunk`).
    public func finishStalledFanOuts(stalledFor: TimeInterval) async throws -> Int {
        let stalled = try await rows(
            """
            SELECT id FROM notifications WHERE fanout_after IS NOT NULL AND fanout_at < extract(epoch FROM clock_timestamp()) - $1
            ORDER BY fanout_at LIMIT 10
            """,
            [.double(stalledFor)]
        ).map { try $0.decode(String.self) }
        var finished = 0
        for id in stalled {
            logger.notice("finishing a fan-out left unfinished", metadata: ["notification": "\(id)"])
            do {
                _ = try await fanOut(id)
                finished += 1
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // One that cannot be finished does not hold up the others.
                logger.warning("cannot finish a fan-out", metadata: ["notification": "\(id)", "error": "\(StoreError.describe(error))"])
            }
        }
        return finished
    }

    public func notification(appID: String, id: String) async throws -> StoredNotification? {
        try await rows(
            "SELECT body, cancelled_at, fanout_after, fanout_queued FROM notifications WHERE app_id = $1 AND id = $2", [.text(appID), .text(id)]
        ).first.map(Self.notification(from:))
    }

    /// A notification from its row (`body, cancelled_at, fanout_after, fanout_queued`): while its
    /// audience is being queued, the audience is what is queued so far.
    static func notification(from row: PostgresRow) throws -> StoredNotification {
        let (body, cancelled, after, queued) = try row.decode((String, Double?, String?, Int64).self)
        return try notification(body: body, cancelled: cancelled, fanOutAfter: after, fanOutQueued: queued)
    }

    /// A notification from its row's columns (see ``notification(from:)``).
    static func notification(body: String, cancelled: Double?, fanOutAfter: String?, fanOutQueued: Int64) throws -> StoredNotification {
        var notification = try StoreCoding.decode(StoredNotification.self, from: body)
        notification.cancelledAt = cancelled.map(Date.init(timeIntervalSince1970:))
        if fanOutAfter != nil {
            notification.queuing = true
            notification.audienceSize = Int(fanOutQueued)
        }
        return notification
    }

    public func message(notificationID: String) async throws -> Data? {
        try await rows("SELECT body FROM notifications WHERE id = $1", [.text(notificationID)]).first.map {
            try StoreCoding.decode(StoredNotification.self, from: try $0.decode(String.self)).message
        }
    }

    /// Claims whole batches in one statement (`herald_claim`, see PostgresSchema): the lease is
    /// the batch's, one row written per batch rather than one per delivery.
    public func claim(owner: String, limit: Int, lease: TimeInterval, now: Date) async throws -> [ClaimedDelivery] {
        try await rows(
            "SELECT id, notification_id, app_id, token, environment, locale, attempts, queued_at FROM herald_claim($1, $2::int, $3, $4)",
            [.text(owner), .int(Int64(limit)), .double(lease), .double(now.timeIntervalSince1970)]
        ).map { row in
            let (id, notificationID, appID, token, environment, locale, attempts, queuedAt) = try row.decode(
                (Int64, String, String, String, String, String?, Int64, Double).self
            )
            return ClaimedDelivery(
                id: id, notificationID: notificationID, appID: appID, token: token, environment: APNsEnvironment(rawValue: environment),
                locale: locale, attempts: Int(attempts), queuedAt: Date(timeIntervalSince1970: queuedAt)
            )
        }
    }

    /// Writes outcomes in one statement (`herald_record`, see PostgresSchema), which also gives
    /// back the batches whose rows are all recorded.
    public func record(_ outcomes: [DeliveryOutcome], by owner: String?) async throws {
        guard !outcomes.isEmpty else { return }
        var bindings = PostgresBindings(capacity: 9)
        bindings.append(outcomes.map(\.id))
        bindings.append(outcomes.map(\.state.rawValue))
        bindings.append(outcomes.map { Int64($0.status ?? 0) })
        bindings.append(outcomes.map { $0.reason ?? "" })
        bindings.append(outcomes.map { $0.apnsID ?? "" })
        bindings.append(outcomes.map(\.finishedAt.timeIntervalSince1970))
        bindings.append(outcomes.map { $0.retryAt?.timeIntervalSince1970 ?? 0 })
        bindings.append(outcomes.map { Int64($0.attempted ? 1 : 0) })
        bindings.append(owner)
        try await client.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT herald_record($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::float8[], $7::float8[], $8::bigint[], $9::text)
                    """, binds: bindings
            ), logger: logger
        )
    }

    /// Extends the lease of this owner's batches that hold any of `ids` (locked in id order,
    /// as `herald_record` does).
    public func renewLeases(owner: String, ids: [Int64], until: Date) async throws {
        guard !ids.isEmpty else { return }
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(owner)
        bindings.append(ids)
        bindings.append(until.timeIntervalSince1970)
        try await client.query(
            PostgresQuery(
                unsafeSQL: """
                    WITH held AS (
                        SELECT q.id FROM delivery_batches q
                        WHERE q.lease_owner = $1 AND q.lease_until < $3
                          AND EXISTS (
                              SELECT 1 FROM deliveries d WHERE d.id = ANY($2::bigint[]) AND d.notification_id = q.notification_id
                                AND d.id BETWEEN q.first_id AND q.last_id)
                        ORDER BY q.id FOR UPDATE)
                    UPDATE delivery_batches AS b SET lease_until = $3 FROM held WHERE b.id = held.id
                    """, binds: bindings
            ), logger: logger
        )
    }

    public func checkWrite(node: String, now: Date) async throws {
        _ = try await rows(
            "INSERT INTO health_checks (node, checked_at) VALUES ($1, $2) ON CONFLICT (node) DO UPDATE SET checked_at = EXCLUDED.checked_at",
            [.text(node), .double(now.timeIntervalSince1970)]
        )
    }

    public func queueSummary(now: Date) async throws -> QueueSummary {
        // The queued rows are those in the batches' ranges (see PostgresSchema).
        guard let row = try await rows(
            // From the batches' own counts (see PostgresSchema): the queue's size, not the rows'.
            "SELECT COALESCE(SUM(queued), 0)::bigint, MIN(queued_at) FILTER (WHERE queued > 0), COALESCE(SUM(retrying), 0)::bigint FROM delivery_batches"
        ).first else {
            return QueueSummary(depth: 0, retrying: 0, oldestQueuedAt: nil)
        }
        let (depth, oldest, retrying) = try row.decode((Int64, Double?, Int64).self)
        return QueueSummary(depth: Int(depth), retrying: Int(retrying), oldestQueuedAt: oldest.map(Date.init(timeIntervalSince1970:)))
    }

    /// ``TokenBucket/reserve(_:perSecond:now:)`` in one statement, on the row every node shares.
    public func reserveSends(appID: String, count: Int, perSecond: Int, now: Date) async throws -> TimeInterval {
        let rate = Double(max(1, perSecond))
        let tokens = try await rows(
            """
            INSERT INTO rate_buckets (app_id, tokens, updated_at) VALUES ($1, $2 - $3, $4)
            ON CONFLICT (app_id) DO UPDATE SET
                tokens = LEAST($2, rate_buckets.tokens + GREATEST(0, $4 - rate_buckets.updated_at) * $2) - $3,
                updated_at = GREATEST(rate_buckets.updated_at, $4)
            RETURNING tokens
            """,
            [.text(appID), .double(rate), .double(Double(count)), .double(now.timeIntervalSince1970)]
        ).first?.decode(Double.self) ?? 0
        return tokens < 0 ? -tokens / rate : 0
    }

    public func releaseLeases(owner: String) async throws {
        _ = try await rows(
            """
            WITH held AS (SELECT id FROM delivery_batches WHERE lease_owner = $1 ORDER BY id FOR UPDATE)
            UPDATE delivery_batches AS b SET lease_owner = NULL, lease_until = NULL FROM held WHERE b.id = held.id
            """,
            [.text(owner)]
        )
    }

    public func queueDepth() async throws -> Int {
        Int(try await rows("SELECT COALESCE(SUM(queued), 0)::bigint FROM delivery_batches").first?.decode(Int64.self) ?? 0)
    }

    public func counts(notificationID: String) async throws -> DeliveryCounts {
        let rows = try await rows(
            "SELECT state, reason, COUNT(*) FROM deliveries WHERE notification_id = $1 GROUP BY state, reason", [.text(notificationID)]
        ).map { row in
            let (state, reason, count) = try row.decode((String, String?, Int64).self)
            return (state: state, reason: reason, count: Int(count))
        }
        return DeliveryCounts(rows: rows)
    }

    static let recordColumns = "id, notification_id, token, state, status, reason, apns_id, attempts, queued_at, finished_at, retry_at"

    public func deliveries(notificationID: String, after: Int64?, state: DeliveryState?, limit: Int) async throws -> [DeliveryRecord] {
        try await rows(
            """
            SELECT \(Self.recordColumns) FROM deliveries WHERE notification_id = $1 AND id > $2 AND ($3::text IS NULL OR state = $3)
            ORDER BY id LIMIT $4
            """,
            [.text(notificationID), .int(after ?? 0), .text(state?.rawValue), .int(Int64(limit))]
        ).map(Self.record(from:))
    }

    public func deliveries(appID: String, token: String, before: Int64?, limit: Int) async throws -> [DeliveryRecord] {
        try await rows(
            "SELECT \(Self.recordColumns) FROM deliveries WHERE app_id = $1 AND token = $2 AND id < $3 ORDER BY id DESC LIMIT $4",
            [.text(appID), .text(token), .int(before ?? Int64.max), .int(Int64(limit))]
        ).map(Self.record(from:))
    }

    private static func record(from row: PostgresRow) throws -> DeliveryRecord {
        let (id, notificationID, token, state, status, reason, apnsID, attempts, queuedAt, finishedAt, retryAt) = try row.decode(
            (Int64, String, String, String, Int64?, String?, String?, Int64, Double, Double?, Double?).self
        )
        return DeliveryRecord(
            id: id, notificationID: notificationID, token: token, state: DeliveryState(rawValue: state) ?? .queued, status: status.map(Int.init),
            reason: reason, apnsID: apnsID, attempts: Int(attempts), queuedAt: Date(timeIntervalSince1970: queuedAt),
            finishedAt: finishedAt.map(Date.init(timeIntervalSince1970:)), nextAttemptAt: retryAt.map(Date.init(timeIntervalSince1970:))
        )
    }
}
