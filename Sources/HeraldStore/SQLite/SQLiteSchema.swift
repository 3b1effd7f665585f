import GRDB

/// The SQLite tables. Times are seconds since 1970 (REAL). The layout's version is the file's
/// `PRAGMA user_version`.
///
/// Queue rows are kept small, because every broadcast writes one per device and rewrites it
/// once with the outcome: they point at their notification and device by integer keys, and the
/// token, environment and locale are read from the device when the row is claimed. A deleted
/// device's row therefore stays, marked `deleted` (and is revived by a new registration). A
/// notification's audience is queued in chunks (see ``SQLiteStore/fanOutChunk``).
enum SQLiteSchema {
    /// The layout this code writes. Version 1 (user_version 0) keyed queue rows by the
    /// notification's id and the app and token, in the row and in two indexes; version 2 had no
    /// `retry_at` (when a delivery that failed for a passing reason is due again) nor the
    /// webhook outbox; version 3 had no `encryption_key` for devices; version 4 had no
    /// `cancelled_at` for notifications nor their time indexes (lists and retention), nor
    /// `deleted_apps`; version 5 had no `console_sessions`.
    static let version = 6

    static let statements = [
        "CREATE TABLE IF NOT EXISTS apps (id TEXT PRIMARY KEY, body TEXT NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS api_keys (
            id TEXT PRIMARY KEY, app_id TEXT, secret_hash TEXT NOT NULL UNIQUE, created_at REAL NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS devices (
            id INTEGER PRIMARY KEY, app_id TEXT NOT NULL, token TEXT NOT NULL, environment TEXT NOT NULL, kind TEXT NOT NULL,
            user_id TEXT, tags TEXT NOT NULL, locale TEXT, time_zone TEXT, app_version TEXT,
            registered_at REAL NOT NULL, state TEXT NOT NULL, state_reason TEXT, state_changed_at REAL, encryption_key TEXT)
        """,
        "CREATE UNIQUE INDEX IF NOT EXISTS devices_token ON devices (app_id, token)",
        "CREATE INDEX IF NOT EXISTS devices_user ON devices (app_id, user_id)",
        """
        CREATE TABLE IF NOT EXISTS device_tags (
            app_id TEXT NOT NULL, token TEXT NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (app_id, tag, token))
        """,
        "CREATE INDEX IF NOT EXISTS device_tags_token ON device_tags (app_id, token)",
        // `fanout_after`: the last token queued while the audience is being queued (`''` before
        // the first), NULL once every device is.
        """
        CREATE TABLE IF NOT EXISTS notifications (
            seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, app_id TEXT NOT NULL, idempotency_key TEXT, created_at REAL NOT NULL,
            body TEXT NOT NULL, fanout_after TEXT, cancelled_at REAL)
        """,
        "CREATE INDEX IF NOT EXISTS notifications_idempotency ON notifications (app_id, idempotency_key, created_at)",
        // An app's list, newest first; retention, oldest first.
        "CREATE INDEX IF NOT EXISTS notifications_listed ON notifications (app_id, created_at, id)",
        "CREATE INDEX IF NOT EXISTS notifications_created ON notifications (created_at)",
        """
        CREATE TABLE IF NOT EXISTS deliveries (
            id INTEGER PRIMARY KEY AUTOINCREMENT, notification INTEGER NOT NULL, device INTEGER NOT NULL, state TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0, status INTEGER, reason TEXT, apns_id TEXT, queued_at REAL NOT NULL, finished_at REAL,
            retry_at REAL)
        """,
        "CREATE INDEX IF NOT EXISTS deliveries_queued ON deliveries (id) WHERE state = 'queued'",
        "CREATE INDEX IF NOT EXISTS deliveries_notification ON deliveries (notification, id)",
        "CREATE INDEX IF NOT EXISTS deliveries_device ON deliveries (device, id)",
        """
        CREATE TABLE IF NOT EXISTS schedules (
            app_id TEXT NOT NULL, id TEXT NOT NULL, next_check_at REAL NOT NULL, lease_owner TEXT, lease_until REAL,
            body TEXT NOT NULL, PRIMARY KEY (app_id, id))
        """,
        "CREATE INDEX IF NOT EXISTS schedules_due ON schedules (next_check_at)",
        """
        CREATE TABLE IF NOT EXISTS webhook_events (
            id INTEGER PRIMARY KEY AUTOINCREMENT, app_id TEXT NOT NULL, body TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at REAL NOT NULL, lease_owner TEXT, lease_until REAL, last_error TEXT, created_at REAL NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS webhook_events_due ON webhook_events (next_attempt_at)",
        // Each node's last health check: a write, so a full disk shows in /health.
        "CREATE TABLE IF NOT EXISTS health_checks (node TEXT PRIMARY KEY, checked_at REAL NOT NULL)",
        // Apps deleted whose devices, notifications and deliveries are still being deleted.
        "CREATE TABLE IF NOT EXISTS deleted_apps (id TEXT PRIMARY KEY, deleted_at REAL NOT NULL)",
        // Browsers signed in to the console, by the SHA-256 of their cookie's secret.
        """
        CREATE TABLE IF NOT EXISTS console_sessions (
            secret_hash TEXT PRIMARY KEY, key_id TEXT NOT NULL, created_at REAL NOT NULL, expires_at REAL NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS console_sessions_key ON console_sessions (key_id, created_at)",
    ]

    /// Brings the file to the current layout (in the caller's transaction): creates what is
    /// missing, and moves a version 1 file's devices, notifications and deliveries over.
    static func migrate(_ db: Database) throws {
        let found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard found <= version else { throw StoreError.newerLayout(found, known: version) }
        if found == 0, try db.tableExists("deliveries") {
            try moveFromVersion1(db)
        } else if found == 2 {
            try db.execute(sql: "ALTER TABLE deliveries ADD COLUMN retry_at REAL")
        }
        for (table, column, type) in [("devices", "encryption_key", "TEXT"), ("notifications", "cancelled_at", "REAL")] {
            if try db.tableExists(table), try !db.columns(in: table).contains(where: { $0.name == column }) {
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(column) \(type)")
            }
        }
        // Every statement creates only what is missing (such as a new table).
        for statement in statements { try db.execute(sql: statement) }
        try db.execute(sql: "PRAGMA user_version = \(version)")
    }

    /// Version 1 → 2: the three tables are renamed, made again in the new layout, filled from
    /// the old ones (queue rows keep their ids) and the old ones dropped.
    private static func moveFromVersion1(_ db: Database) throws {
        for index in ["devices_user", "notifications_idempotency", "deliveries_queued", "deliveries_ready", "deliveries_notification", "deliveries_device"] {
            try db.execute(sql: "DROP INDEX IF EXISTS \(index)")
        }
        for table in ["devices", "notifications", "deliveries"] {
            try db.execute(sql: "ALTER TABLE \(table) RENAME TO \(table)_v1")
        }
        for statement in statements { try db.execute(sql: statement) }
        try db.execute(
            sql: """
                INSERT INTO devices (app_id, token, environment, kind, user_id, tags, locale, time_zone, app_version, registered_at, state,
                    state_reason, state_changed_at)
                SELECT app_id, token, environment, kind, user_id, tags, locale, time_zone, app_version, registered_at, state,
                    state_reason, state_changed_at
                FROM devices_v1 ORDER BY app_id, token
                """
        )
        try db.execute(
            sql: """
                INSERT INTO notifications (id, app_id, idempotency_key, created_at, body)
                SELECT id, app_id, idempotency_key, created_at, body FROM notifications_v1 ORDER BY created_at, id
                """
        )
        // Tokens that have deliveries but no registration any more come back as deleted devices.
        try db.execute(
            sql: """
                INSERT INTO devices (app_id, token, environment, kind, tags, locale, registered_at, state)
                SELECT q.app_id, q.token, MAX(q.environment), 'alert', '[]', MAX(q.locale), MIN(q.queued_at), 'deleted'
                FROM deliveries_v1 q WHERE NOT EXISTS (SELECT 1 FROM devices d WHERE d.app_id = q.app_id AND d.token = q.token)
                GROUP BY q.app_id, q.token
                """
        )
        try db.execute(
            sql: """
                INSERT INTO deliveries (id, notification, device, state, attempts, status, reason, apns_id, queued_at, finished_at)
                SELECT q.id, n.seq, d.id, q.state, q.attempts, q.status, q.reason, q.apns_id, q.queued_at, q.finished_at
                FROM deliveries_v1 q JOIN notifications n ON n.id = q.notification_id
                    JOIN devices d ON d.app_id = q.app_id AND d.token = q.token
                ORDER BY q.id
                """
        )
        for table in ["deliveries", "notifications", "devices"] {
            try db.execute(sql: "DROP TABLE \(table)_v1")
        }
    }
}
