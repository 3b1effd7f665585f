import Foundation
import GRDB
import HeraldCore
import Synchronization

/// The default store: one SQLite file in WAL mode, through GRDB. Several workers of one process
/// share it; for several processes use ``PostgresStore``. (Other processes may read and register
/// devices in the file, but only one delivers from it: see ``SQLiteDeliveryLock``.)
public final class SQLiteStore: HeraldStore {
    let pool: DatabasePool
    /// The queue's leases; read and changed only on the pool's writer, in order with the rows.
    let leases = Mutex(SQLiteLeases())
    let deliveryLock: SQLiteDeliveryLock
    /// Seals the apps' secrets (nil: kept as given).
    let sealer: SecretSealer?
    /// Per-app rate limits: one process delivers from the file, so they live in its memory.
    let buckets = Mutex<[String: TokenBucket]>([:])

    /// Opens (or creates) the database file at `path`; a file with several hard links is refused
    /// (``StoreError/hardLinked(_:links:)``). A new file is made readable by its owner
    /// only (mode 0600; SQLite gives its WAL and shared-memory files the same mode): it holds
    /// API key hashes and Apple credentials.
    public init(path: String, sealer: SecretSealer? = nil) throws {
        self.sealer = sealer
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        // SQLite names its WAL after the path: two names of one file would keep two logs of one
        // database (and corrupt it), and two processes could deliver from it unseen by each other.
        if let links = try? FileManager.default.attributesOfItem(atPath: path)[.referenceCount] as? Int, links > 1 {
            throw StoreError.hardLinked(path, links: links)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        deliveryLock = SQLiteDeliveryLock(databasePath: path)
    }

    public func reserveSends(appID: String, count: Int, perSecond: Int, now: Date) async throws -> TimeInterval {
        buckets.withLock { buckets in
            var bucket = buckets[appID] ?? TokenBucket(tokens: Double(perSecond), updated: now)
            defer { buckets[appID] = bucket }
            return bucket.reserve(count, perSecond: perSecond, now: now)
        }
    }

    public func ping() async throws {
        try await pool.read { db in _ = try Int.fetchOne(db, sql: "SELECT 1") }
    }

    public func migrate() async throws {
        try await pool.write { db in try SQLiteSchema.migrate(db) }
    }

    public func close() async throws {
        defer { deliveryLock.release() }
        try pool.close()
    }

    // MARK: Apps and keys

    public func insertApp(_ app: StoredApp) async throws {
        let body = try StoreCoding.encode(app.sealed(with: sealer))
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO apps (id, body) VALUES (?, ?)", arguments: [app.id, body])
        }
    }

    public func updateApp(_ app: StoredApp) async throws {
        let body = try StoreCoding.encode(app.sealed(with: sealer))
        try await pool.write { db in
            try db.execute(sql: "UPDATE apps SET body = ? WHERE id = ?", arguments: [body, app.id])
        }
    }

    public func app(id: String) async throws -> StoredApp? {
        let body = try await pool.read { db in try String.fetchOne(db, sql: "SELECT body FROM apps WHERE id = ?", arguments: [id]) }
        return try body.map { try StoreCoding.decode(StoredApp.self, from: $0).opened(with: sealer) }
    }

    public func apps() async throws -> [StoredApp] {
        let bodies = try await pool.read { db in try String.fetchAll(db, sql: "SELECT body FROM apps ORDER BY id") }
        return try bodies.map { try StoreCoding.decode(StoredApp.self, from: $0).opened(with: sealer) }
    }

    public func deleteApp(id: String) async throws -> Bool {
        try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM apps WHERE id = ?)", arguments: [id]) == true else { return false }
            for table in ["api_keys", "schedules", "webhook_events"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE app_id = ?", arguments: [id])
            }
            try db.execute(sql: "DELETE FROM apps WHERE id = ?", arguments: [id])
            // What is left of it is deleted in the background, a batch at a time.
            try db.execute(sql: "INSERT OR REPLACE INTO deleted_apps (id, deleted_at) VALUES (?, ?)", arguments: [id, Date().timeIntervalSince1970])
            self.buckets.withLock { _ = $0.removeValue(forKey: id) }
            return true
        }
    }

    /// How long a deleted app's tombstone outlives its last rows (requests under way when it
    /// was deleted may still write some).
    static let tombstoneLifetime: TimeInterval = 600

    public func purgeDeletedApps(limit: Int) async throws -> Int {
        try await pool.write { db in
            var deleted = 0
            for row in try Row.fetchAll(db, sql: "SELECT id, deleted_at FROM deleted_apps ORDER BY deleted_at LIMIT 10") where deleted < limit {
                let app: String = row[0]
                let deletedAt: Double = row[1]
                var ofThisApp = 0
                // Deliveries (queued ones too: a worker that claimed one finds no app and records
                // it as failed), through the app's notifications and devices; then the rest.
                for query in [
                    "SELECT q.id FROM notifications n JOIN deliveries q ON q.notification = n.seq WHERE n.app_id = ? LIMIT ?",
                    "SELECT q.id FROM devices d JOIN deliveries q ON q.device = d.id WHERE d.app_id = ? LIMIT ?",
                ] where deleted < limit {
                    let ids = try Int64.fetchAll(db, sql: query, arguments: [app, limit - deleted])
                    guard !ids.isEmpty else { continue }
                    try db.execute(sql: "DELETE FROM deliveries WHERE id IN (\(ids.map(String.init).joined(separator: ",")))")
                    deleted += db.changesCount
                    ofThisApp += db.changesCount
                    // Retries waiting in memory for these rows are forgotten.
                    self.leases.withLock { $0.drop(ids) }
                }
                for statement in [
                    "DELETE FROM notifications WHERE seq IN (SELECT seq FROM notifications WHERE app_id = ? LIMIT ?)",
                    "DELETE FROM device_tags WHERE rowid IN (SELECT rowid FROM device_tags WHERE app_id = ? LIMIT ?)",
                    "DELETE FROM devices WHERE id IN (SELECT id FROM devices WHERE app_id = ? LIMIT ?)",
                ] where deleted < limit {
                    try db.execute(sql: statement, arguments: [app, limit - deleted])
                    deleted += db.changesCount
                    ofThisApp += db.changesCount
                }
                // Kept a while after its rows are gone: a request that was under way when the
                // app was deleted may still write some.
                if ofThisApp == 0 && deletedAt < Date().timeIntervalSince1970 - Self.tombstoneLifetime {
                    try db.execute(sql: "DELETE FROM deleted_apps WHERE id = ?", arguments: [app])
                }
            }
            return deleted
        }
    }

    public func deleteAdminKey(id: String) async throws -> AdminKeyDeletion {
        try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM api_keys WHERE id = ? AND app_id IS NULL)", arguments: [id]) == true else {
                return .notFound
            }
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM api_keys WHERE app_id IS NULL") ?? 0 > 1 else { return .last }
            try db.execute(sql: "DELETE FROM api_keys WHERE id = ? AND app_id IS NULL", arguments: [id])
            return .deleted
        }
    }

    public func insertKey(_ key: StoredAPIKey) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO api_keys (id, app_id, secret_hash, created_at) VALUES (?, ?, ?, ?)",
                arguments: [key.id, key.appID, key.secretHash, key.createdAt.timeIntervalSince1970]
            )
        }
    }

    public func key(secretHash: String) async throws -> StoredAPIKey? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT id, app_id, secret_hash, created_at FROM api_keys WHERE secret_hash = ?", arguments: [secretHash])
                .map(Self.key(from:))
        }
    }

    public func keys(appID: String?) async throws -> [StoredAPIKey] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, app_id, secret_hash, created_at FROM api_keys WHERE app_id IS ? ORDER BY created_at, id", arguments: [appID]
            ).map(Self.key(from:))
        }
    }

    public func deleteKey(id: String, appID: String?) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM api_keys WHERE id = ? AND app_id IS ?", arguments: [id, appID])
            return db.changesCount > 0
        }
    }

    @discardableResult
    public func insertSession(_ session: ConsoleSession, keepingAtMost limit: Int) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO console_sessions (secret_hash, key_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [session.secretHash, session.keyID, session.createdAt.timeIntervalSince1970, session.expiresAt.timeIntervalSince1970]
            )
            try db.execute(
                sql: """
                    DELETE FROM console_sessions WHERE key_id = ? AND secret_hash IN (
                        SELECT secret_hash FROM console_sessions WHERE key_id = ? ORDER BY created_at DESC, secret_hash LIMIT -1 OFFSET ?)
                    """,
                arguments: [session.keyID, session.keyID, max(limit, 1)]
            )
            return db.changesCount
        }
    }

    public func session(secretHash: String, now: Date) async throws -> (session: ConsoleSession, key: StoredAPIKey)? {
        try await pool.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT k.id, k.app_id, k.secret_hash, k.created_at, s.created_at, s.expires_at FROM console_sessions s
                    JOIN api_keys k ON k.id = s.key_id WHERE s.secret_hash = ? AND s.expires_at > ?
                    """,
                arguments: [secretHash, now.timeIntervalSince1970]
            ).map { row in
                let key = Self.key(from: row)
                return (ConsoleSession(
                    secretHash: secretHash, keyID: key.id, createdAt: Date(timeIntervalSince1970: row[4]), expiresAt: Date(timeIntervalSince1970: row[5])
                ), key)
            }
        }
    }

    public func deleteSession(secretHash: String) async throws {
        try await pool.write { db in try db.execute(sql: "DELETE FROM console_sessions WHERE secret_hash = ?", arguments: [secretHash]) }
    }

    public func purgeSessions(now: Date) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM console_sessions WHERE expires_at <= ? OR key_id NOT IN (SELECT id FROM api_keys)",
                arguments: [now.timeIntervalSince1970]
            )
            return db.changesCount
        }
    }

    private static func key(from row: Row) -> StoredAPIKey {
        StoredAPIKey(id: row[0], appID: row[1], secretHash: row[2], createdAt: Date(timeIntervalSince1970: row[3]))
    }

    // MARK: Devices

    static let deviceColumns =
        "app_id, token, environment, kind, user_id, tags, locale, time_zone, app_version, registered_at, state, state_reason, state_changed_at, encryption_key"

    /// ``deviceColumns`` of the table aliased `d`.
    static let qualifiedDeviceColumns = deviceColumns.split(separator: ",").map { "d." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")

    public func upsertDevices(_ devices: [StoredDevice]) async throws -> [StoredDevice] {
        let stored = devices.map { device in
            var device = device
            device.state = .active
            device.stateReason = nil
            device.stateChangedAt = nil
            return device
        }
        try await pool.write { db in
            let upsert = try db.cachedStatement(
                sql: """
                    INSERT INTO devices (\(Self.deviceColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', NULL, NULL, ?)
                    ON CONFLICT (app_id, token) DO UPDATE SET environment = excluded.environment, kind = excluded.kind,
                        user_id = excluded.user_id, tags = excluded.tags, locale = excluded.locale, time_zone = excluded.time_zone,
                        app_version = excluded.app_version, registered_at = excluded.registered_at, state = 'active',
                        state_reason = NULL, state_changed_at = NULL, encryption_key = excluded.encryption_key
                    """
            )
            let clearTags = try db.cachedStatement(sql: "DELETE FROM device_tags WHERE app_id = ? AND token = ?")
            let addTag = try db.cachedStatement(sql: "INSERT INTO device_tags (app_id, token, tag) VALUES (?, ?, ?)")
            for device in stored {
                try upsert.execute(arguments: [
                    device.appID, device.token, device.environment.rawValue, device.kind.rawValue, device.userID,
                    StoreCoding.encodeTags(device.tags), device.locale, device.timeZone, device.appVersion,
                    device.registeredAt.timeIntervalSince1970, device.encryptionKey,
                ])
                try clearTags.execute(arguments: [device.appID, device.token])
                for tag in Set(device.tags) {
                    try addTag.execute(arguments: [device.appID, device.token, tag])
                }
            }
        }
        return stored
    }

    public func device(appID: String, token: String) async throws -> StoredDevice? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.deviceColumns) FROM devices WHERE app_id = ? AND token = ? AND state != 'deleted'", arguments: [appID, token]
            )
                .map(Self.device(from:))
        }
    }

    public func devices(appID: String, userID: String) async throws -> [StoredDevice] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.deviceColumns) FROM devices WHERE app_id = ? AND user_id = ? AND state != 'deleted' ORDER BY token",
                arguments: [appID, userID]
            ).map(Self.device(from:))
        }
    }

    public func encryptionKeys(appID: String, tokens: [String]) async throws -> [String: String] {
        guard !tokens.isEmpty else { return [:] }
        return try await pool.read { db in
            var keys: [String: String] = [:]
            for chunk in stride(from: 0, to: tokens.count, by: 500).map({ Array(tokens[$0..<min($0 + 500, tokens.count)]) }) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let rows = try Row.fetchAll(
                    db, sql: "SELECT token, encryption_key FROM devices WHERE app_id = ? AND token IN (\(marks)) AND encryption_key IS NOT NULL",
                    arguments: StatementArguments([appID] + chunk)
                )
                for row in rows { keys[row[0]] = row[1] }
            }
            return keys
        }
    }

    public func deleteDevice(appID: String, token: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM device_tags WHERE app_id = ? AND token = ?", arguments: [appID, token])
            // The row stays, marked deleted, for the deliveries that point at it; a new
            // registration of the token revives it.
            try db.execute(
                sql: "UPDATE devices SET state = 'deleted', state_reason = NULL, state_changed_at = ? WHERE app_id = ? AND token = ? AND state != 'deleted'",
                arguments: [Date().timeIntervalSince1970, appID, token]
            )
            return db.changesCount > 0
        }
    }

    public func applyFeedback(_ feedback: TokenFeedback) async throws -> Bool {
        try await pool.write { db in
            // A 410 loses to a registration after its timestamp; a flag applies whatever the time.
            let registeredBefore = feedback.state == .unregistered ? feedback.timestamp.timeIntervalSince1970 : Double.greatestFiniteMagnitude
            try db.execute(
                sql: """
                    UPDATE devices SET state = ?, state_reason = ?, state_changed_at = ?
                    WHERE app_id = ? AND token = ? AND state = 'active' AND registered_at <= ?
                    """,
                arguments: [
                    feedback.state.rawValue, feedback.reason, feedback.timestamp.timeIntervalSince1970, feedback.appID, feedback.token,
                    registeredBefore,
                ]
            )
            return db.changesCount > 0
        }
    }

    public func timeZones(appID: String, audience: Audience) async throws -> [String] {
        let filter = AudienceFilter(appID: appID, audience: audience) { _ in "?" }
        return try await pool.read { db in
            try String.fetchAll(
                db, sql: "SELECT DISTINCT COALESCE(d.time_zone, '') FROM devices d WHERE \(filter.condition) ORDER BY 1",
                arguments: StatementArguments(filter.arguments)
            )
        }
    }

    static func device(from row: Row) -> StoredDevice {
        StoredDevice(
            appID: row[0], token: row[1], environment: APNsEnvironment(rawValue: row[2]), kind: DeviceKind(rawValue: row[3]) ?? .alert,
            userID: row[4], tags: StoreCoding.decodeTags(row[5]), locale: row[6], timeZone: row[7], appVersion: row[8],
            registeredAt: Date(timeIntervalSince1970: row[9]), state: DeviceState(rawValue: row[10]) ?? .active, stateReason: row[11],
            stateChangedAt: (row[12] as Double?).map(Date.init(timeIntervalSince1970:)), encryptionKey: row[13]
        )
    }
}
