import Foundation
import PostgresNIO

/// Lists, cancelling and retention: what reads or trims the history the queue leaves behind.
extension PostgresStore {
    public func devices(appID: String, matching query: DeviceQuery) async throws -> [StoredDevice] {
        let filter = DeviceQueryFilter(appID: appID, query: query) { "$\($0)" }
        return try await rows(
            "SELECT \(SQLiteStore.qualifiedDeviceColumns) FROM \(filter.source) WHERE \(filter.condition) ORDER BY \(filter.order) LIMIT $\(filter.arguments.count + 1)",
            filter.arguments.map { .text($0) } + [.int(Int64(query.limit))]
        ).map(Self.device(from:))
    }

    /// The notifications with queued deliveries: those with a batch in the queue (a batch
    /// lives while its range holds queued rows; see PostgresSchema), a small table.
    static let notificationsWithQueuedRows = "SELECT DISTINCT notification_id FROM delivery_batches"

    /// A notification's status from its row (aliased `n`).
    static let notificationStatus = """
        CASE WHEN n.cancelled_at IS NOT NULL THEN 'cancelled' WHEN n.fanout_after IS NOT NULL OR n.id IN (\(notificationsWithQueuedRows)) THEN 'sending' ELSE 'finished' END
        """

    public func notifications(appID: String, matching query: NotificationQuery) async throws -> [NotificationEntry] {
        var values: [PostgresValue] = [.text(appID)]
        var conditions = ["n.app_id = $1"]
        func bind(_ value: PostgresValue) -> String {
            values.append(value)
            return "$\(values.count)"
        }
        if let since = query.since { conditions.append("n.created_at >= \(bind(.double(since.timeIntervalSince1970)))") }
        if let until = query.until { conditions.append("n.created_at < \(bind(.double(until.timeIntervalSince1970)))") }
        if let after = query.after {
            conditions.append("(n.created_at, n.id) < (\(bind(.double(after.createdAt.timeIntervalSince1970))), \(bind(.text(after.id))))")
        }
        if let status = query.status { conditions.append("(\(Self.notificationStatus)) = \(bind(.text(status.rawValue)))") }
        let limit = bind(.int(Int64(query.limit)))
        return try await rows(
            """
            SELECT n.body, n.cancelled_at, n.fanout_after, n.fanout_queued, \(Self.notificationStatus) FROM notifications n
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY n.created_at DESC, n.id DESC LIMIT \(limit)
            """,
            values
        ).map { row in
            let (body, cancelled, after, queued, status) = try row.decode((String, Double?, String?, Int64, String).self)
            let notification = try Self.notification(body: body, cancelled: cancelled, fanOutAfter: after, fanOutQueued: queued)
            return NotificationEntry(notification: notification, status: NotificationStatus(rawValue: status) ?? .finished)
        }
    }

    public func cancel(appID: String, notificationID: String, now: Date) async throws -> StoredNotification? {
        let logger = logger
        return try await client.withTransaction(logger: logger) { connection in
            guard let row = try await connection.query(
                .sql("SELECT body, cancelled_at FROM notifications WHERE app_id = $1 AND id = $2 FOR UPDATE", [.text(appID), .text(notificationID)]),
                logger: logger
            ).collect().first else { return nil }
            let (body, cancelled) = try row.decode((String, Double?).self)
            var notification = try StoreCoding.decode(StoredNotification.self, from: body)
            if let cancelled {
                notification.cancelledAt = Date(timeIntervalSince1970: cancelled)
                return notification
            }
            try await connection.query(
                .sql("UPDATE notifications SET cancelled_at = $1 WHERE id = $2", [.double(now.timeIntervalSince1970), .text(notificationID)]),
                logger: logger
            )
            // Nothing of it stays queued: its batches go, first (locked in id order, as every
            // statement that changes batches does). Rows in flight are cancelled too; the outcome
            // their node records replaces it (a send APNs took stays a send), and a retry leaves
            // them cancelled (see herald_record).
            try await connection.query(
                .sql(
                    """
                    WITH held AS (SELECT id FROM delivery_batches WHERE notification_id = $1 ORDER BY id FOR UPDATE)
                    DELETE FROM delivery_batches AS b USING held WHERE b.id = held.id
                    """,
                    [.text(notificationID)]
                ), logger: logger
            )
            try await connection.query(
                .sql(
                    """
                    UPDATE deliveries SET state = 'cancelled', finished_at = $1, retry_at = NULL
                    WHERE notification_id = $2 AND state = 'queued'
                    """,
                    [.double(now.timeIntervalSince1970), .text(notificationID)]
                ), logger: logger
            )
            notification.cancelledAt = now
            return notification
        }
    }

    public func purgeHistory(before cutoff: Date, limit: Int) async throws -> Int {
        let logger = logger
        return try await client.withTransaction(logger: logger) { connection in
            // One node trims at a time (others would delete the same rows and wait on each other).
            guard try await Self.holdsRetentionLock(connection, logger: logger) else { return 0 }
            var deleted = 0
            // Oldest first; a notification with deliveries still queued is kept (and passed over).
            let old = try await connection.query(
                .sql(
                    "SELECT id FROM notifications WHERE created_at < $1 AND fanout_after IS NULL AND id NOT IN (\(Self.notificationsWithQueuedRows)) ORDER BY created_at LIMIT 20",
                    [.double(cutoff.timeIntervalSince1970)]
                ),
                logger: logger
            ).collect().map { try $0.decode(String.self) }
            for id in old where deleted < limit {
                deleted += try await connection.query(
                    .sql(
                        """
                        DELETE FROM deliveries WHERE id IN (SELECT id FROM deliveries WHERE notification_id = $1 AND state <> 'queued' LIMIT $2)
                        RETURNING 1
                        """,
                        [.text(id), .int(Int64(limit - deleted))]
                    ), logger: logger
                ).collect().count
                deleted += try await connection.query(
                    .sql(
                        "DELETE FROM notifications n WHERE id = $1 AND fanout_after IS NULL AND NOT EXISTS (SELECT 1 FROM deliveries q WHERE q.notification_id = n.id) RETURNING 1",
                        [.text(id)]
                    ), logger: logger
                ).collect().count
            }
            return deleted
        }
    }

    public func capDeviceHistory(keep: Int, after cursor: String?, devices: Int, limit: Int) async throws -> (next: String?, deleted: Int) {
        // The cursor is the last device's app id and token.
        let start = cursor.map { $0.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false).map(String.init) } ?? ["", ""]
        guard start.count == 2 else { return (nil, 0) }
        let logger = logger
        return try await client.withTransaction(logger: logger) { connection in
            guard try await Self.holdsRetentionLock(connection, logger: logger) else { return (nil, 0) }
            let page = try await connection.query(
                .sql(
                    "SELECT app_id, token FROM devices WHERE (app_id, token) > ($1, $2) ORDER BY app_id, token LIMIT $3",
                    [.text(start[0]), .text(start[1]), .int(Int64(max(1, devices)))]
                ), logger: logger
            ).collect().map { try $0.decode((String, String).self) }
            // The last page reaches past the last device: rows of devices no longer registered too.
            let end = page.count == max(1, devices) ? page.last : nil
            let deleted = try await connection.query(.sql(
                """
                DELETE FROM deliveries WHERE id IN (
                    SELECT id FROM (
                        SELECT id, row_number() OVER (PARTITION BY app_id, token ORDER BY id DESC) AS newest FROM deliveries
                        WHERE (app_id, token) > ($1, $2) AND ($3::text IS NULL OR (app_id, token) <= ($3, $4)) AND state <> 'queued') AS history
                    WHERE newest > $5 LIMIT $6)
                RETURNING 1
                """,
                [.text(start[0]), .text(start[1]), .text(end?.0), .text(end?.1), .int(Int64(keep)), .int(Int64(limit))]
            ), logger: logger).collect().count
            // A full batch may have left more in this range: the next call goes over it again.
            if deleted >= limit { return (start[0] + "\u{1F}" + start[1], deleted) }
            return (end.map { $0.0 + "\u{1F}" + $0.1 }, deleted)
        }
    }

    public func liveNotifications(_ ids: [String]) async throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(ids)
        let rows = try await client.query(
            PostgresQuery(unsafeSQL: "SELECT id FROM notifications WHERE id = ANY($1::text[]) AND cancelled_at IS NULL AND app_id NOT IN (SELECT id FROM deleted_apps)", binds: bindings), logger: logger
        )
        var live: Set<String> = []
        for try await id in rows.decode(String.self) { live.insert(id) }
        return live
    }

    /// Takes the retention lock for the transaction, if no other node holds it.
    private static func holdsRetentionLock(_ connection: PostgresConnection, logger: Logger) async throws -> Bool {
        // Per schema: deployments in other schemas of the same database trim their own history.
        try await connection.query("SELECT pg_try_advisory_xact_lock(7461002, hashtext(current_schema()))", logger: logger).collect().first?.decode(Bool.self) ?? false
    }
}
