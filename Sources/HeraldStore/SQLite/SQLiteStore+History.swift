import Foundation
import GRDB

/// Lists, cancelling and retention: what reads or trims the history the queue leaves behind.
extension SQLiteStore {
    public func devices(appID: String, matching query: DeviceQuery) async throws -> [StoredDevice] {
        let filter = DeviceQueryFilter(appID: appID, query: query) { _ in "?" }
        return try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.qualifiedDeviceColumns) FROM \(filter.source) WHERE \(filter.condition) ORDER BY \(filter.order) LIMIT ?",
                arguments: StatementArguments(filter.arguments) + [query.limit]
            ).map(Self.device(from:))
        }
    }

    /// The notifications with queued deliveries: read through the queue's partial index, once
    /// per statement (its cost follows the queue's depth, not the history's size).
    static let notificationsWithQueuedRows = "SELECT DISTINCT notification FROM deliveries WHERE state = 'queued'"

    /// A notification's status from its row (aliased `n`).
    static let notificationStatus = """
        CASE WHEN n.cancelled_at IS NOT NULL THEN 'cancelled'
             WHEN n.fanout_after IS NOT NULL OR n.seq IN (\(notificationsWithQueuedRows)) THEN 'sending'
             ELSE 'finished' END
        """

    public func notifications(appID: String, matching query: NotificationQuery) async throws -> [NotificationEntry] {
        var conditions = ["n.app_id = ?"]
        var arguments: StatementArguments = [appID]
        if let since = query.since {
            conditions.append("n.created_at >= ?")
            arguments += [since.timeIntervalSince1970]
        }
        if let until = query.until {
            conditions.append("n.created_at < ?")
            arguments += [until.timeIntervalSince1970]
        }
        if let after = query.after {
            // The first condition lets the index seek to the page's start.
            conditions.append("n.created_at <= ? AND (n.created_at < ? OR n.id < ?)")
            arguments += [after.createdAt.timeIntervalSince1970, after.createdAt.timeIntervalSince1970, after.id]
        }
        if let status = query.status {
            conditions.append("(\(Self.notificationStatus)) = ?")
            arguments += [status.rawValue]
        }
        arguments += [query.limit]
        let bound = arguments
        return try await pool.read { [conditions] db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT n.body, n.cancelled_at, \(Self.notificationStatus) FROM notifications n
                    WHERE \(conditions.joined(separator: " AND ")) ORDER BY n.created_at DESC, n.id DESC LIMIT ?
                    """,
                arguments: bound
            ).map { row in
                var notification = try StoreCoding.decode(StoredNotification.self, from: row[0] as String)
                notification.cancelledAt = (row[1] as Double?).map(Date.init(timeIntervalSince1970:))
                return NotificationEntry(notification: notification, status: NotificationStatus(rawValue: row[2]) ?? .finished)
            }
        }
    }

    public func cancel(appID: String, notificationID: String, now: Date) async throws -> StoredNotification? {
        try await pool.write { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT seq, body, cancelled_at FROM notifications WHERE app_id = ? AND id = ?", arguments: [appID, notificationID]
            ) else { return nil }
            var notification = try StoreCoding.decode(StoredNotification.self, from: row[1] as String)
            if let cancelled = row[2] as Double? {
                notification.cancelledAt = Date(timeIntervalSince1970: cancelled)
                return notification
            }
            let seq: Int64 = row[0]
            try db.execute(sql: "UPDATE notifications SET cancelled_at = ? WHERE seq = ?", arguments: [now.timeIntervalSince1970, seq])
            // Rows in flight are cancelled too; the outcome their worker records replaces it
            // (a send APNs took stays a send), and a retry leaves them cancelled.
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM deliveries WHERE notification = ? AND state = 'queued'", arguments: [seq])
            try db.execute(
                sql: "UPDATE deliveries SET state = 'cancelled', finished_at = ?, retry_at = NULL WHERE notification = ? AND state = 'queued'",
                arguments: [now.timeIntervalSince1970, seq]
            )
            self.leases.withLock { leases in leases.drop(ids) }
            notification.cancelledAt = now
            return notification
        }
    }

    public func purgeHistory(before cutoff: Date, limit: Int) async throws -> Int {
        try await pool.write { db in
            var deleted = 0
            // Oldest first; a notification with deliveries still queued is kept (and passed over).
            let old = try Int64.fetchAll(
                db,
                sql: """
                    SELECT seq FROM notifications WHERE created_at < ? AND fanout_after IS NULL AND seq NOT IN (\(Self.notificationsWithQueuedRows))
                    ORDER BY created_at LIMIT 20
                    """,
                arguments: [cutoff.timeIntervalSince1970]
            )
            for seq in old where deleted < limit {
                try db.execute(
                    sql: "DELETE FROM deliveries WHERE id IN (SELECT id FROM deliveries WHERE notification = ? AND state <> 'queued' LIMIT ?)",
                    arguments: [seq, limit - deleted]
                )
                deleted += db.changesCount
                if try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM deliveries WHERE notification = ?)", arguments: [seq])! {
                    try db.execute(sql: "DELETE FROM notifications WHERE seq = ?", arguments: [seq])
                    deleted += db.changesCount
                }
            }
            return deleted
        }
    }

    public func capDeviceHistory(keep: Int, after cursor: String?, devices: Int, limit: Int) async throws -> (next: String?, deleted: Int) {
        let start = cursor.flatMap { Int64($0) } ?? 0
        return try await pool.write { db in
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM devices WHERE id > ? ORDER BY id LIMIT ?", arguments: [start, max(1, devices)])
            // The last page reaches past the last device: rows of devices no longer listed too.
            let end = ids.count == max(1, devices) ? ids.last ?? Int64.max : Int64.max
            try db.execute(
                sql: """
                    DELETE FROM deliveries WHERE id IN (
                        SELECT id FROM (
                            SELECT id, ROW_NUMBER() OVER (PARTITION BY device ORDER BY id DESC) AS newest
                            FROM deliveries WHERE device > ? AND device <= ? AND state <> 'queued')
                        WHERE newest > ? LIMIT ?)
                    """,
                arguments: [start, end, keep, limit]
            )
            let deleted = db.changesCount
            // A full batch may have left more in this range: the next call goes over it again.
            if deleted >= limit { return (String(start), deleted) }
            return (end == Int64.max ? nil : String(end), deleted)
        }
    }

    public func liveNotifications(_ ids: [String]) async throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        return try await pool.read { db in
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            return Set(try String.fetchAll(
                db, sql: "SELECT id FROM notifications WHERE id IN (\(marks)) AND cancelled_at IS NULL AND app_id NOT IN (SELECT id FROM deleted_apps)",
                arguments: StatementArguments(ids)
            ))
        }
    }
}
