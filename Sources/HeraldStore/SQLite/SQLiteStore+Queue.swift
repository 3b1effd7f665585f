import Foundation
import GRDB
import HeraldCore

extension SQLiteStore {
    public func enqueue(_ notification: StoredNotification, idempotentSince: Date) async throws -> EnqueueOutcome {
        let filter = AudienceFilter(appID: notification.appID, audience: notification.audience) { _ in "?" }
        return try await pool.write { db in
            if let key = notification.idempotencyKey,
                let body = try String.fetchOne(
                    db,
                    sql: "SELECT body FROM notifications WHERE app_id = ? AND idempotency_key = ? AND created_at >= ? ORDER BY created_at DESC LIMIT 1",
                    arguments: [notification.appID, key, idempotentSince.timeIntervalSince1970]
                )
            {
                return .existing(try StoreCoding.decode(StoredNotification.self, from: body))
            }
            try db.execute(
                sql: """
                    INSERT INTO deliveries (notification_id, app_id, token, environment, locale, state, attempts, queued_at)
                    SELECT ?, d.app_id, d.token, d.environment, d.locale, 'queued', 0, ? FROM devices d WHERE \(filter.condition)
                    ORDER BY d.token
                    """,
                arguments: StatementArguments([notification.id, notification.createdAt.timeIntervalSince1970] as [any DatabaseValueConvertible])
                    + StatementArguments(filter.arguments)
            )
            var stored = notification
            stored.audienceSize = db.changesCount
            try db.execute(
                sql: "INSERT INTO notifications (id, app_id, idempotency_key, created_at, body) VALUES (?, ?, ?, ?, ?)",
                arguments: [stored.id, stored.appID, stored.idempotencyKey, stored.createdAt.timeIntervalSince1970, try StoreCoding.encode(stored)]
            )
            return .created(stored)
        }
    }

    public func notification(appID: String, id: String) async throws -> StoredNotification? {
        let body = try await pool.read { db in
            try String.fetchOne(db, sql: "SELECT body FROM notifications WHERE app_id = ? AND id = ?", arguments: [appID, id])
        }
        return try body.map { try StoreCoding.decode(StoredNotification.self, from: $0) }
    }

    public func message(notificationID: String) async throws -> Data? {
        let body = try await pool.read { db in
            try String.fetchOne(db, sql: "SELECT body FROM notifications WHERE id = ?", arguments: [notificationID])
        }
        return try body.map { try StoreCoding.decode(StoredNotification.self, from: $0).message }
    }

    public func claim(owner: String, limit: Int, lease: TimeInterval, now: Date) async throws -> [ClaimedDelivery] {
        try await pool.write { db in
            try Row.fetchAll(
                db,
                sql: """
                    UPDATE deliveries SET lease_owner = ?, lease_until = ?, attempts = attempts + 1
                    WHERE id IN (
                        SELECT id FROM deliveries WHERE state = 'queued' AND (lease_until IS NULL OR lease_until < ?) ORDER BY id LIMIT ?)
                    RETURNING id, notification_id, app_id, token, environment, locale, attempts
                    """,
                arguments: [owner, now.timeIntervalSince1970 + lease, now.timeIntervalSince1970, limit]
            ).map { row in
                ClaimedDelivery(
                    id: row[0], notificationID: row[1], appID: row[2], token: row[3], environment: APNsEnvironment(rawValue: row[4]),
                    locale: row[5], attempts: row[6]
                )
            }.sorted { $0.id < $1.id }
        }
    }

    public func record(_ outcomes: [DeliveryOutcome]) async throws {
        guard !outcomes.isEmpty else { return }
        let sorted = outcomes.sorted { $0.id < $1.id }
        try await pool.write { db in
            let one = try db.cachedStatement(
                sql: """
                    UPDATE deliveries SET state = ?, status = ?, reason = ?, apns_id = ?, finished_at = ?, lease_owner = NULL, lease_until = NULL
                    WHERE id = ?
                    """
            )
            // A claimed batch is mostly consecutive ids that all went through: one statement per
            // run, with the run's last finishing time.
            let run = try db.cachedStatement(
                sql: """
                    UPDATE deliveries SET state = 'sent', status = ?, reason = NULL, apns_id = NULL, finished_at = ?, lease_owner = NULL,
                        lease_until = NULL
                    WHERE id BETWEEN ? AND ?
                    """
            )
            var start = 0
            while start < sorted.count {
                let first = sorted[start]
                var end = start + 1
                if first.isPlainSend {
                    while end < sorted.count, sorted[end].id == sorted[end - 1].id + 1, sorted[end].isPlainSend, sorted[end].status == first.status {
                        end += 1
                    }
                }
                if end - start > 1 {
                    let finished = sorted[start..<end].lazy.map(\.finishedAt).max() ?? first.finishedAt
                    try run.execute(arguments: [first.status, finished.timeIntervalSince1970, first.id, sorted[end - 1].id])
                } else {
                    try one.execute(arguments: [
                        first.state.rawValue, first.status, first.reason, first.apnsID, first.finishedAt.timeIntervalSince1970, first.id,
                    ])
                }
                start = end
            }
        }
    }

    public func releaseLeases(owner: String) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE deliveries SET lease_owner = NULL, lease_until = NULL, attempts = MAX(attempts - 1, 0) WHERE state = 'queued' AND lease_owner = ?",
                arguments: [owner]
            )
        }
    }

    public func queueDepth() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM deliveries WHERE state = 'queued'") ?? 0 }
    }

    public func counts(notificationID: String) async throws -> DeliveryCounts {
        let rows = try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT state, reason, COUNT(*) FROM deliveries WHERE notification_id = ? GROUP BY state, reason",
                arguments: [notificationID]
            ).map { row in (row[0] as String, row[1] as String?, row[2] as Int) }
        }
        return DeliveryCounts(rows: rows)
    }

    static let recordColumns = "notification_id, token, state, status, reason, apns_id, attempts, queued_at, finished_at"

    public func deliveries(notificationID: String, limit: Int) async throws -> [DeliveryRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.recordColumns) FROM deliveries WHERE notification_id = ? ORDER BY id LIMIT ?",
                arguments: [notificationID, limit]
            ).map(Self.record(from:))
        }
    }

    public func deliveries(appID: String, token: String, limit: Int) async throws -> [DeliveryRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.recordColumns) FROM deliveries WHERE app_id = ? AND token = ? ORDER BY id DESC LIMIT ?",
                arguments: [appID, token, limit]
            ).map(Self.record(from:))
        }
    }

    private static func record(from row: Row) -> DeliveryRecord {
        DeliveryRecord(
            notificationID: row[0], token: row[1], state: DeliveryState(rawValue: row[2]) ?? .queued, status: row[3], reason: row[4],
            apnsID: row[5], attempts: row[6], queuedAt: Date(timeIntervalSince1970: row[7]),
            finishedAt: (row[8] as Double?).map(Date.init(timeIntervalSince1970:))
        )
    }
}

extension DeliveryCounts {
    /// Counts from `(state, reason, count)` rows.
    init(rows: [(state: String, reason: String?, count: Int)]) {
        self.init()
        for row in rows {
            switch DeliveryState(rawValue: row.state) {
            case .queued: queued += row.count
            case .sent: sent += row.count
            case .expired: expired += row.count
            case .failed, nil:
                failed += row.count
                failedByReason[row.reason ?? "unknown", default: 0] += row.count
            }
        }
    }
}
