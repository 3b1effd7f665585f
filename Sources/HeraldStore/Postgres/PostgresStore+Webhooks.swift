import Foundation
import PostgresNIO

extension PostgresStore {
    public func enqueueWebhookEvent(appID: String, body: String, now: Date) async throws {
        _ = try await rows(
            "INSERT INTO webhook_events (app_id, body, attempts, next_attempt_at, created_at) VALUES ($1, $2, 0, $3, $3)",
            [.text(appID), .text(body), .double(now.timeIntervalSince1970)]
        )
    }

    public func claimWebhookEvents(owner: String, now: Date, lease: TimeInterval, limit: Int) async throws -> [WebhookEvent] {
        try await rows(
            """
            UPDATE webhook_events SET lease_owner = $1, lease_until = $2, attempts = attempts + 1
            WHERE id IN (
                SELECT id FROM webhook_events WHERE next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until < $3)
                ORDER BY next_attempt_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
            RETURNING id, app_id, body, attempts, created_at
            """,
            [.text(owner), .double(now.timeIntervalSince1970 + lease), .double(now.timeIntervalSince1970), .int(Int64(limit))]
        ).map { row in
            let (id, appID, body, attempts, createdAt) = try row.decode((Int64, String, String, Int64, Double).self)
            return WebhookEvent(id: id, appID: appID, body: body, attempts: Int(attempts), createdAt: Date(timeIntervalSince1970: createdAt))
        }.sorted { $0.id < $1.id }
    }

    public func finishWebhookEvent(id: Int64) async throws {
        _ = try await rows("DELETE FROM webhook_events WHERE id = $1", [.int(id)])
    }

    public func retryWebhookEvent(id: Int64, at: Date, error: String) async throws {
        _ = try await rows(
            "UPDATE webhook_events SET next_attempt_at = $1, last_error = $2, lease_owner = NULL, lease_until = NULL WHERE id = $3",
            [.double(at.timeIntervalSince1970), .text(error), .int(id)]
        )
    }
}
