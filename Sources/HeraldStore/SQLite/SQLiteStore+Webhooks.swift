import Foundation
import GRDB

extension SQLiteStore {
    public func enqueueWebhookEvent(appID: String, body: String, now: Date) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO webhook_events (app_id, body, attempts, next_attempt_at, created_at) VALUES (?, ?, 0, ?, ?)",
                arguments: [appID, body, now.timeIntervalSince1970, now.timeIntervalSince1970]
            )
        }
    }

    public func claimWebhookEvents(owner: String, now: Date, lease: TimeInterval, limit: Int) async throws -> [WebhookEvent] {
        try await pool.write { db in
            try Row.fetchAll(
                db,
                sql: """
                    UPDATE webhook_events SET lease_owner = ?, lease_until = ?, attempts = attempts + 1
                    WHERE id IN (
                        SELECT id FROM webhook_events WHERE next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)
                        ORDER BY next_attempt_at, id LIMIT ?)
                    RETURNING id, app_id, body, attempts, created_at
                    """,
                arguments: [owner, now.timeIntervalSince1970 + lease, now.timeIntervalSince1970, now.timeIntervalSince1970, limit]
            ).map { row in
                WebhookEvent(id: row[0], appID: row[1], body: row[2], attempts: row[3], createdAt: Date(timeIntervalSince1970: row[4]))
            }.sorted { $0.id < $1.id }
        }
    }

    public func finishWebhookEvent(id: Int64) async throws {
        try await pool.write { db in try db.execute(sql: "DELETE FROM webhook_events WHERE id = ?", arguments: [id]) }
    }

    public func retryWebhookEvent(id: Int64, at: Date, error: String) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE webhook_events SET next_attempt_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL WHERE id = ?",
                arguments: [at.timeIntervalSince1970, error, id]
            )
        }
    }
}
