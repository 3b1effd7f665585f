import Foundation
import GRDB
import HeraldCore

extension SQLiteStore {
    /// Rows queued per transaction of a fan-out: workers start on the first chunk while the
    /// rest is queued.
    static let fanOutChunk = 5_000

    /// Stores the notification and queues its audience in chunks of ``fanOutChunk`` devices (in
    /// token order), each its own transaction; it returns once every chunk is queued. The
    /// notification's row remembers the last token queued (`fanout_after`) until the end, so a
    /// fan-out cut short by a crash is finished by ``prepareToDeliver()`` at the next start.
    public func enqueue(_ notification: StoredNotification, idempotentSince: Date) async throws -> EnqueueOutcome {
        let started = try await pool.write { db -> (seq: Int64, existing: StoredNotification?) in
            if let key = notification.idempotencyKey,
                let body = try String.fetchOne(
                    db,
                    sql: "SELECT body FROM notifications WHERE app_id = ? AND idempotency_key = ? AND created_at >= ? ORDER BY created_at DESC LIMIT 1",
                    arguments: [notification.appID, key, idempotentSince.timeIntervalSince1970]
                )
            {
                return (0, try StoreCoding.decode(StoredNotification.self, from: body))
            }
            try db.execute(
                sql: "INSERT INTO notifications (id, app_id, idempotency_key, created_at, body, fanout_after) VALUES (?, ?, ?, ?, ?, '')",
                arguments: [
                    notification.id, notification.appID, notification.idempotencyKey, notification.createdAt.timeIntervalSince1970,
                    try StoreCoding.encode(notification),
                ]
            )
            return (db.lastInsertedRowID, nil)
        }
        if let existing = started.existing { return .existing(existing) }
        return .created(try await fanOut(notification, seq: started.seq, after: "", queued: 0))
    }

    /// Queues the audience's devices with tokens after `after`, a chunk per transaction, then
    /// stores the audience's size and marks the fan-out finished.
    func fanOut(_ notification: StoredNotification, seq: Int64, after: String, queued: Int) async throws -> StoredNotification {
        let filter = AudienceFilter(appID: notification.appID, audience: notification.audience) { _ in "?" }
        var cursor = after
        var queued = queued
        while true {
            let (after, queuedBefore) = (cursor, queued)
            let (next, stored) = try await pool.write { db -> (String?, StoredNotification?) in
                // A notification cancelled while its audience is queued stops growing.
                let cancelled = try Double.fetchOne(db, sql: "SELECT cancelled_at FROM notifications WHERE seq = ?", arguments: [seq])
                if let cancelled {
                    var stored = notification
                    stored.audienceSize = queuedBefore
                    stored.cancelledAt = Date(timeIntervalSince1970: cancelled)
                    try db.execute(
                        sql: "UPDATE notifications SET body = ?, fanout_after = NULL WHERE seq = ?", arguments: [try StoreCoding.encode(stored), seq]
                    )
                    return (nil, stored)
                }
                try db.execute(
                    sql: """
                        INSERT INTO deliveries (notification, device, state, attempts, queued_at)
                        SELECT ?, d.id, 'queued', 0, ? FROM devices d
                        WHERE \(filter.condition) AND d.token > ? ORDER BY d.token LIMIT ?
                        """,
                    arguments: StatementArguments([seq, notification.createdAt.timeIntervalSince1970] as [any DatabaseValueConvertible])
                        + StatementArguments(filter.arguments) + [after, Self.fanOutChunk]
                )
                let added = db.changesCount
                if added == Self.fanOutChunk, let last = try String.fetchOne(
                        db, sql: "SELECT d.token FROM deliveries q JOIN devices d ON d.id = q.device WHERE q.id = ?", arguments: [db.lastInsertedRowID]
                    ) {
                    try db.execute(sql: "UPDATE notifications SET fanout_after = ? WHERE seq = ?", arguments: [last, seq])
                    return (last, nil)
                }
                var stored = notification
                stored.audienceSize = queuedBefore + added
                try db.execute(
                    sql: "UPDATE notifications SET body = ?, fanout_after = NULL WHERE seq = ?", arguments: [try StoreCoding.encode(stored), seq]
                )
                return (nil, stored)
            }
            if let stored { return stored }
            queued += Self.fanOutChunk
            cursor = next ?? cursor
        }
    }

    /// Finishes fan-outs that a crash cut short (their notification still has `fanout_after`).
    func finishFanOuts() async throws {
        let unfinished = try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT n.seq, n.body, n.fanout_after, (SELECT COUNT(*) FROM deliveries q WHERE q.notification = n.seq)
                    FROM notifications n WHERE n.fanout_after IS NOT NULL ORDER BY n.seq
                    """
            ).map { row in (seq: row[0] as Int64, body: row[1] as String, after: row[2] as String, queued: row[3] as Int) }
        }
        for notification in unfinished {
            _ = try await fanOut(
                try StoreCoding.decode(StoredNotification.self, from: notification.body), seq: notification.seq, after: notification.after,
                queued: notification.queued
            )
        }
    }

    public func notification(appID: String, id: String) async throws -> StoredNotification? {
        let row = try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT body, cancelled_at, fanout_after FROM notifications WHERE app_id = ? AND id = ?", arguments: [appID, id])
        }
        return try row.map { row in
            var notification = try StoreCoding.decode(StoredNotification.self, from: row[0] as String)
            notification.cancelledAt = (row[1] as Double?).map(Date.init(timeIntervalSince1970:))
            notification.queuing = (row[2] as String?) != nil
            return notification
        }
    }

    public func message(notificationID: String) async throws -> Data? {
        let body = try await pool.read { db in
            try String.fetchOne(db, sql: "SELECT body FROM notifications WHERE id = ?", arguments: [notificationID])
        }
        return try body.map { try StoreCoding.decode(StoredNotification.self, from: $0).message }
    }

    /// Takes the file's delivery lock and finishes fan-outs a crash cut short.
    public func prepareToDeliver() async throws {
        try deliveryLock.acquire()
        try await finishFanOuts()
    }

    /// Reads queued rows that no lease holds and leases them in ``SQLiteLeases``; nothing is
    /// written to the file. It runs on the pool's writer, so every outcome recorded before it is
    /// seen.
    public func claim(owner: String, limit: Int, lease: TimeInterval, now: Date) async throws -> [ClaimedDelivery] {
        try deliveryLock.acquire()
        let until = now.addingTimeInterval(lease)
        return try await pool.writeWithoutTransaction { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT q.id, q.notification, d.token, d.environment, d.locale, q.attempts, q.retry_at, q.queued_at FROM deliveries q
                    JOIN devices d ON d.id = q.device
                    WHERE q.state = 'queued' AND q.id > ? ORDER BY q.id LIMIT ?
                    """
            )
            let notification = try db.cachedStatement(sql: "SELECT id, app_id FROM notifications WHERE seq = ?")
            // A batch is mostly one notification: its ids are read once, not once per row.
            var names: (seq: Int64, id: String, appID: String) = (-1, "", "")
            var after = self.leases.withLock { leases in
                leases.reopenEnded(now: now)
                return leases.cursor
            }
            var claimed: [ClaimedDelivery] = []
            while claimed.count < limit {
                let wanted = limit - claimed.count
                var read = 0
                let rows = try Row.fetchCursor(statement, arguments: [after, wanted])
                while let row = try rows.next() {
                    read += 1
                    let id: Int64 = row[0]
                    after = id
                    guard !self.leases.withLock({ $0.isHeld(id, at: now) }) else { continue }
                    // A retry not due yet (after a restart, when no lease remembers it) waits
                    // in memory like one postponed by this process.
                    if let retryAt = (row[6] as Double?).map(Date.init(timeIntervalSince1970:)), retryAt > now {
                        self.leases.withLock { $0.postpone(id, until: retryAt) }
                        continue
                    }
                    let seq: Int64 = row[1]
                    if seq != names.seq {
                        guard let found = try Row.fetchOne(notification, arguments: [seq]) else { continue }
                        names = (seq, found[0], found[1])
                    }
                    let claims = self.leases.withLock { $0.take(id, owner: owner, until: until) }
                    claimed.append(ClaimedDelivery(
                        id: id, notificationID: names.id, appID: names.appID, token: row[2], environment: APNsEnvironment(rawValue: row[3]),
                        locale: row[4], attempts: row[5] + claims, queuedAt: Date(timeIntervalSince1970: row[7])
                    ))
                }
                self.leases.withLock { $0.advance(to: after) }
                if read < wanted { break }
            }
            return claimed
        }
    }

    /// Writes the outcomes (with the claims counted in memory as attempts) in one transaction,
    /// then ends their leases.
    /// With `owner`, an outcome that leaves a row queued is dropped while another owner holds it.
    public func record(_ outcomes: [DeliveryOutcome], by owner: String?) async throws {
        guard !outcomes.isEmpty else { return }
        let all = outcomes.sorted { $0.id < $1.id }
        try await pool.writeWithoutTransaction { db in
            let (sorted, claims) = self.leases.withLock { leases in
                let kept = all.filter { outcome in
                    guard let owner, outcome.state == .queued, let holder = leases.held[outcome.id]?.owner else { return true }
                    return holder == owner
                }
                return (kept, kept.map { leases.claims(of: $0.id) })
            }
            guard !sorted.isEmpty else { return }
            // Retries of rows that left the queue meanwhile (cancelled): their lease ends.
            var left: Set<Int64> = []
            try db.inTransaction {
                let one = try db.cachedStatement(
                    sql: """
                        UPDATE deliveries SET state = ?, status = ?, reason = ?, apns_id = ?, finished_at = ?, attempts = attempts + ?,
                            retry_at = NULL
                        WHERE id = ?
                        """
                )
                // A delivery to be retried stays queued, with why its attempt failed and when
                // it is due again (one cancelled meanwhile stays cancelled).
                let retry = try db.cachedStatement(
                    sql: "UPDATE deliveries SET status = ?, reason = ?, retry_at = ?, attempts = attempts + ? WHERE id = ? AND state = 'queued'"
                )
                // A claimed batch is mostly consecutive ids that all went through: one statement
                // per run, with the run's last finishing time.
                let run = try db.cachedStatement(
                    sql: """
                        UPDATE deliveries SET state = 'sent', status = ?, reason = NULL, apns_id = NULL, finished_at = ?, attempts = attempts + ?,
                            retry_at = NULL
                        WHERE id BETWEEN ? AND ?
                        """
                )
                var start = 0
                while start < sorted.count {
                    let first = sorted[start]
                    var end = start + 1
                    if first.isPlainSend {
                        while end < sorted.count, sorted[end].id == sorted[end - 1].id + 1, sorted[end].isPlainSend, sorted[end].status == first.status,
                            claims[end] == claims[start]
                        {
                            end += 1
                        }
                    }
                    if first.state == .queued {
                        try retry.execute(arguments: [
                            first.status, first.reason, (first.retryAt ?? first.finishedAt).timeIntervalSince1970,
                            max(claims[start] - (first.attempted ? 0 : 1), 0), first.id,
                        ])
                        if db.changesCount == 0 { left.insert(first.id) }
                    } else if end - start > 1 {
                        let finished = sorted[start..<end].lazy.map(\.finishedAt).max() ?? first.finishedAt
                        try run.execute(arguments: [first.status, finished.timeIntervalSince1970, claims[start], first.id, sorted[end - 1].id])
                    } else {
                        try one.execute(arguments: [
                            first.state.rawValue, first.status, first.reason, first.apnsID, first.finishedAt.timeIntervalSince1970,
                            max(claims[start] - (first.attempted ? 0 : 1), 0), first.id,
                        ])
                    }
                    start = end
                }
                return .commit
            }
            self.leases.withLock { leases in
                for outcome in sorted {
                    if outcome.state == .queued && !left.contains(outcome.id) {
                        leases.postpone(outcome.id, until: outcome.retryAt ?? outcome.finishedAt)
                    } else {
                        leases.finish(outcome.id)
                    }
                }
            }
        }
    }

    /// Leases live in memory (``SQLiteLeases``): renewing them writes nothing.
    public func renewLeases(owner: String, ids: [Int64], until: Date) async throws {
        leases.withLock { $0.renew(owner: owner, ids: ids, until: until) }
    }

    public func checkWrite(node: String, now: Date) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO health_checks (node, checked_at) VALUES (?, ?) ON CONFLICT (node) DO UPDATE SET checked_at = excluded.checked_at",
                arguments: [node, now.timeIntervalSince1970]
            )
        }
    }

    public func queueSummary(now: Date) async throws -> QueueSummary {
        try await pool.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*), MIN(queued_at), SUM(CASE WHEN retry_at IS NOT NULL THEN 1 ELSE 0 END)
                    FROM deliveries WHERE state = 'queued'
                    """
            )
            return QueueSummary(
                depth: row?[0] ?? 0, retrying: row?[2] ?? 0, oldestQueuedAt: (row?[1] as Double?).map(Date.init(timeIntervalSince1970:))
            )
        }
    }

    /// Leases live in memory (``SQLiteLeases``): giving them back writes nothing.
    public func releaseLeases(owner: String) async throws {
        try await pool.writeWithoutTransaction { _ in
            self.leases.withLock { $0.release(owner: owner) }
        }
    }

    public func queueDepth() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM deliveries WHERE state = 'queued'") ?? 0 }
    }

    public func counts(notificationID: String) async throws -> DeliveryCounts {
        let rows = try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT state, reason, COUNT(*) FROM deliveries WHERE notification = (SELECT seq FROM notifications WHERE id = ?)
                    GROUP BY state, reason
                    """,
                arguments: [notificationID]
            ).map { row in (row[0] as String, row[1] as String?, row[2] as Int) }
        }
        return DeliveryCounts(rows: rows)
    }

    static let recordColumns = "q.id, n.id, d.token, q.state, q.status, q.reason, q.apns_id, q.attempts, q.queued_at, q.finished_at, q.retry_at"

    public func deliveries(notificationID: String, after: Int64?, state: DeliveryState?, limit: Int) async throws -> [DeliveryRecord] {
        try await pool.read { db in
            guard let seq = try Int64.fetchOne(db, sql: "SELECT seq FROM notifications WHERE id = ?", arguments: [notificationID]) else { return [] }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.recordColumns) FROM deliveries q JOIN notifications n ON n.seq = q.notification JOIN devices d ON d.id = q.device
                    WHERE q.notification = ? AND q.id > ? AND (? IS NULL OR q.state = ?) ORDER BY q.id LIMIT ?
                    """,
                arguments: [seq, after ?? 0, state?.rawValue, state?.rawValue, limit]
            ).map(Self.record(from:))
        }
    }

    public func deliveries(appID: String, token: String, before: Int64?, limit: Int) async throws -> [DeliveryRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.recordColumns) FROM deliveries q JOIN notifications n ON n.seq = q.notification JOIN devices d ON d.id = q.device
                    WHERE d.app_id = ? AND d.token = ? AND q.id < ? ORDER BY q.id DESC LIMIT ?
                    """,
                arguments: [appID, token, before ?? Int64.max, limit]
            ).map(Self.record(from:))
        }
    }

    private static func record(from row: Row) -> DeliveryRecord {
        DeliveryRecord(
            id: row[0], notificationID: row[1], token: row[2], state: DeliveryState(rawValue: row[3]) ?? .queued, status: row[4], reason: row[5],
            apnsID: row[6], attempts: row[7], queuedAt: Date(timeIntervalSince1970: row[8]),
            finishedAt: (row[9] as Double?).map(Date.init(timeIntervalSince1970:)),
            nextAttemptAt: (row[10] as Double?).map(Date.init(timeIntervalSince1970:))
        )
    }
}

extension DeliveryCounts {
    /// Counts from `(state, reason, count)` rows.
    init(rows: [(state: String, reason: String?, count: Int)]) {
        self.init()
        for row in rows {
            switch DeliveryState(rawValue: row.state) {
            case .queued:
                queued += row.count
                if let reason = row.reason { retryingByReason[reason, default: 0] += row.count }
            case .sent: sent += row.count
            case .expired: expired += row.count
            case .cancelled: cancelled += row.count
            case .failed, nil:
                failed += row.count
                failedByReason[row.reason ?? "unknown", default: 0] += row.count
            }
        }
    }
}
