/// The PostgreSQL tables: the same as SQLite's, with PostgreSQL's types. Times are seconds since
/// 1970 (double precision).
enum PostgresSchema {
    /// Columns added after the first layout, added by ``PostgresStore/migrate()`` only when
    /// missing (an `ALTER TABLE` locks the table even when it changes nothing).
    static let addedColumns: [(table: String, column: String, type: String)] = [
        // When a delivery that failed for a passing reason is due again.
        ("deliveries", "retry_at", "DOUBLE PRECISION"),
        // A device's public key for alerts sealed end to end.
        ("devices", "encryption_key", "TEXT"),
        // When a notification was cancelled.
        ("notifications", "cancelled_at", "DOUBLE PRECISION"),
    ]

    static let statements = [
        "CREATE TABLE IF NOT EXISTS apps (id TEXT PRIMARY KEY, body TEXT NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS api_keys (
            id TEXT PRIMARY KEY, app_id TEXT, secret_hash TEXT NOT NULL UNIQUE, created_at DOUBLE PRECISION NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS devices (
            app_id TEXT NOT NULL, token TEXT NOT NULL, environment TEXT NOT NULL, kind TEXT NOT NULL,
            user_id TEXT, tags TEXT NOT NULL, locale TEXT, time_zone TEXT, app_version TEXT,
            registered_at DOUBLE PRECISION NOT NULL, state TEXT NOT NULL, state_reason TEXT, state_changed_at DOUBLE PRECISION,
            encryption_key TEXT, PRIMARY KEY (app_id, token))
        """,
        "CREATE INDEX IF NOT EXISTS devices_user ON devices (app_id, user_id)",
        """
        CREATE TABLE IF NOT EXISTS device_tags (
            app_id TEXT NOT NULL, token TEXT NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (app_id, tag, token))
        """,
        "CREATE INDEX IF NOT EXISTS device_tags_token ON device_tags (app_id, token)",
        """
        CREATE TABLE IF NOT EXISTS notifications (
            id TEXT PRIMARY KEY, app_id TEXT NOT NULL, idempotency_key TEXT, created_at DOUBLE PRECISION NOT NULL, body TEXT NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS notifications_idempotency ON notifications (app_id, idempotency_key, created_at)",
        // An app's list, newest first; retention, oldest first.
        "CREATE INDEX IF NOT EXISTS notifications_listed ON notifications (app_id, created_at, id)",
        "CREATE INDEX IF NOT EXISTS notifications_created ON notifications (created_at)",
        """
        CREATE TABLE IF NOT EXISTS deliveries (
            id BIGSERIAL PRIMARY KEY, notification_id TEXT NOT NULL, app_id TEXT NOT NULL, token TEXT NOT NULL,
            environment TEXT NOT NULL, locale TEXT, state TEXT NOT NULL, lease_owner TEXT, lease_until DOUBLE PRECISION,
            attempts BIGINT NOT NULL DEFAULT 0, status BIGINT, reason TEXT, apns_id TEXT,
            queued_at DOUBLE PRECISION NOT NULL, finished_at DOUBLE PRECISION, retry_at DOUBLE PRECISION)
        """,
        // The queue is three partial indexes over the queued rows, so that a claim reads only
        // what it can take: rows ready now in id order, rows waiting to be retried by their
        // time, and rows in flight by when their lease ends (few: those being sent). Rows in
        // flight are out of the ready index, so claims never step over them, and a row
        // recorded as sent or failed leaves all three: history costs the queue nothing. (One
        // index on every queued row made each claim step over the rows in flight, and led the
        // planner to join a batch's outcomes against every queued row.)
        "DROP INDEX IF EXISTS deliveries_queued",
        "CREATE INDEX IF NOT EXISTS deliveries_ready ON deliveries (id) WHERE state = 'queued' AND lease_until IS NULL AND retry_at IS NULL",
        "CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (retry_at) WHERE state = 'queued' AND lease_until IS NULL AND retry_at IS NOT NULL",
        "CREATE INDEX IF NOT EXISTS deliveries_leased ON deliveries (lease_until) WHERE state = 'queued' AND lease_until IS NOT NULL",
        "CREATE INDEX IF NOT EXISTS deliveries_notification ON deliveries (notification_id, id)",
        "CREATE INDEX IF NOT EXISTS deliveries_device ON deliveries (app_id, token, id)",
        """
        CREATE TABLE IF NOT EXISTS schedules (
            app_id TEXT NOT NULL, id TEXT NOT NULL, next_check_at DOUBLE PRECISION NOT NULL, lease_owner TEXT,
            lease_until DOUBLE PRECISION, body TEXT NOT NULL, PRIMARY KEY (app_id, id))
        """,
        "CREATE INDEX IF NOT EXISTS schedules_due ON schedules (next_check_at)",
        """
        CREATE TABLE IF NOT EXISTS webhook_events (
            id BIGSERIAL PRIMARY KEY, app_id TEXT NOT NULL, body TEXT NOT NULL, attempts BIGINT NOT NULL DEFAULT 0,
            next_attempt_at DOUBLE PRECISION NOT NULL, lease_owner TEXT, lease_until DOUBLE PRECISION, last_error TEXT,
            created_at DOUBLE PRECISION NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS webhook_events_due ON webhook_events (next_attempt_at)",
        // Each node's last health check: a write, so a full disk shows in /health.
        "CREATE TABLE IF NOT EXISTS health_checks (node TEXT PRIMARY KEY, checked_at DOUBLE PRECISION NOT NULL)",
        // Per-app rate limits shared by every node (see TokenBucket).
        "CREATE TABLE IF NOT EXISTS rate_buckets (app_id TEXT PRIMARY KEY, tokens DOUBLE PRECISION NOT NULL, updated_at DOUBLE PRECISION NOT NULL)",
        // Apps deleted whose devices, notifications and deliveries are still being deleted.
        "CREATE TABLE IF NOT EXISTS deleted_apps (id TEXT PRIMARY KEY, deleted_at DOUBLE PRECISION NOT NULL)",
        // Browsers signed in to the console, by the SHA-256 of their cookie's secret.
        """
        CREATE TABLE IF NOT EXISTS console_sessions (
            secret_hash TEXT PRIMARY KEY, key_id TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL, expires_at DOUBLE PRECISION NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS console_sessions_key ON console_sessions (key_id, created_at)",
    ]
}
