import Foundation
import PostgresNIO

extension PostgresStore {
    public func upsertSchedule(_ schedule: StoredSchedule) async throws {
        _ = try await rows(
            """
            INSERT INTO schedules (app_id, id, next_check_at, lease_owner, lease_until, body) VALUES ($1, $2, $3, NULL, NULL, $4)
            ON CONFLICT (app_id, id) DO UPDATE SET next_check_at = excluded.next_check_at, lease_owner = NULL, lease_until = NULL,
                body = excluded.body
            """,
            [.text(schedule.appID), .text(schedule.id), .double(schedule.nextCheckAt.timeIntervalSince1970), .text(try StoreCoding.encode(schedule))]
        )
    }

    public func schedules(appID: String) async throws -> [StoredSchedule] {
        try await rows("SELECT body FROM schedules WHERE app_id = $1 ORDER BY next_check_at, id", [.text(appID)]).map {
            try StoreCoding.decode(StoredSchedule.self, from: try $0.decode(String.self))
        }
    }

    public func schedule(appID: String, id: String) async throws -> StoredSchedule? {
        try await rows("SELECT body FROM schedules WHERE app_id = $1 AND id = $2", [.text(appID), .text(id)]).first.map {
            try StoreCoding.decode(StoredSchedule.self, from: try $0.decode(String.self))
        }
    }

    public func deleteSchedule(appID: String, id: String) async throws -> Bool {
        try await changes("DELETE FROM schedules WHERE app_id = $1 AND id = $2 RETURNING 1", [.text(appID), .text(id)]) > 0
    }

    public func claimDueSchedules(owner: String, now: Date, lease: TimeInterval, limit: Int) async throws -> [StoredSchedule] {
        try await rows(
            """
            UPDATE schedules SET lease_owner = $1, lease_until = $2
            WHERE (app_id, id) IN (
                SELECT app_id, id FROM schedules WHERE next_check_at <= $3 AND (lease_until IS NULL OR lease_until < $3)
                ORDER BY next_check_at LIMIT $4 FOR UPDATE SKIP LOCKED)
            RETURNING body
            """,
            [.text(owner), .double(now.timeIntervalSince1970 + lease), .double(now.timeIntervalSince1970), .int(Int64(limit))]
        ).map { try StoreCoding.decode(StoredSchedule.self, from: try $0.decode(String.self)) }
    }

    public func finishFiring(_ schedule: StoredSchedule, finished: Bool, owner: String) async throws {
        if finished {
            _ = try await rows("DELETE FROM schedules WHERE app_id = $1 AND id = $2 AND lease_owner = $3", [.text(schedule.appID), .text(schedule.id), .text(owner)])
        } else {
            _ = try await rows(
                "UPDATE schedules SET next_check_at = $1, lease_owner = NULL, lease_until = NULL, body = $2 WHERE app_id = $3 AND id = $4 AND lease_owner = $5",
                [
                    .double(schedule.nextCheckAt.timeIntervalSince1970), .text(try StoreCoding.encode(schedule)), .text(schedule.appID), .text(schedule.id),
                    .text(owner),
                ]
            )
        }
    }
}
