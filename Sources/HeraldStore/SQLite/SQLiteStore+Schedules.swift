import Foundation
import GRDB

extension SQLiteStore {
    public func upsertSchedule(_ schedule: StoredSchedule) async throws {
        let body = try StoreCoding.encode(schedule)
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO schedules (app_id, id, next_check_at, lease_owner, lease_until, body) VALUES (?, ?, ?, NULL, NULL, ?)
                    ON CONFLICT (app_id, id) DO UPDATE SET next_check_at = excluded.next_check_at, lease_owner = NULL,
                        lease_until = NULL, body = excluded.body
                    """,
                arguments: [schedule.appID, schedule.id, schedule.nextCheckAt.timeIntervalSince1970, body]
            )
        }
    }

    public func schedules(appID: String) async throws -> [StoredSchedule] {
        let bodies = try await pool.read { db in
            try String.fetchAll(db, sql: "SELECT body FROM schedules WHERE app_id = ? ORDER BY next_check_at, id", arguments: [appID])
        }
        return try bodies.map { try StoreCoding.decode(StoredSchedule.self, from: $0) }
    }

    public func schedule(appID: String, id: String) async throws -> StoredSchedule? {
        let body = try await pool.read { db in
            try String.fetchOne(db, sql: "SELECT body FROM schedules WHERE app_id = ? AND id = ?", arguments: [appID, id])
        }
        return try body.map { try StoreCoding.decode(StoredSchedule.self, from: $0) }
    }

    public func deleteSchedule(appID: String, id: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM schedules WHERE app_id = ? AND id = ?", arguments: [appID, id])
            return db.changesCount > 0
        }
    }

    public func claimDueSchedules(owner: String, now: Date, lease: TimeInterval, limit: Int) async throws -> [StoredSchedule] {
        let bodies = try await pool.write { db in
            try String.fetchAll(
                db,
                sql: """
                    UPDATE schedules SET lease_owner = ?, lease_until = ?
                    WHERE (app_id, id) IN (
                        SELECT app_id, id FROM schedules WHERE next_check_at <= ? AND (lease_until IS NULL OR lease_until < ?)
                        ORDER BY next_check_at LIMIT ?)
                    RETURNING body
                    """,
                arguments: [owner, now.timeIntervalSince1970 + lease, now.timeIntervalSince1970, now.timeIntervalSince1970, limit]
            )
        }
        return try bodies.map { try StoreCoding.decode(StoredSchedule.self, from: $0) }
    }

    public func finishFiring(_ schedule: StoredSchedule, finished: Bool, owner: String) async throws {
        let body = try StoreCoding.encode(schedule)
        try await pool.write { db in
            if finished {
                try db.execute(sql: "DELETE FROM schedules WHERE app_id = ? AND id = ? AND lease_owner = ?", arguments: [schedule.appID, schedule.id, owner])
            } else {
                try db.execute(
                    sql: "UPDATE schedules SET next_check_at = ?, lease_owner = NULL, lease_until = NULL, body = ? WHERE app_id = ? AND id = ? AND lease_owner = ?",
                    arguments: [schedule.nextCheckAt.timeIntervalSince1970, body, schedule.appID, schedule.id, owner]
                )
            }
        }
    }
}
