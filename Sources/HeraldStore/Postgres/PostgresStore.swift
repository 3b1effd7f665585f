import Foundation
import HeraldCore
import Logging
import NIOSSL
import PostgresNIO

/// The store for several `herald serve` processes: one PostgreSQL database through postgres-nio.
/// Batches of queue rows and due schedules are leased with `FOR UPDATE SKIP LOCKED`, so each is
/// worked on by one node while its lease lasts, and a dead node's work is taken over when its
/// leases end.
public final class PostgresStore: HeraldStore {
    let client: PostgresClient
    let logger: Logger
    let schema: String?
    /// Seconds a session may sit idle inside a transaction before PostgreSQL ends it.
    static let idleTransactionTimeout = 15
    /// Seals the apps' secrets (nil: kept as given).
    let sealer: SecretSealer?
    private let runner: Task<Void, Never>

    /// Connects to `url` (`postgres://user:password@host:port/database[?schema=NAME]`, with
    /// `sslmode` and `sslrootcert` as libpq has them; see ``tls(mode:rootCertificate:)``). With a
    /// schema (the parameter, else the URL's), the tables live in that schema (created by
    /// ``migrate()``), so several stores can share one database.
    public init(
        url: String, schema: String? = nil, sealer: SecretSealer? = nil, logger: Logger = Logger(label: "herald.store.postgres")
    ) throws(StoreError) {
        self.sealer = sealer
        let expected = "postgres://user:password@host:port/database[?schema=NAME][&sslmode=disable|require|verify-ca|verify-full][&sslrootcert=PEM]"
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty, let user = components.user
        else {
            throw StoreError.badURL(url, expected: expected)
        }
        var schema = schema
        var mode = "prefer"
        var rootCertificate: String?
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("schema", let value?): schema = schema ?? value
            case ("sslmode", let value?): mode = value
            case ("sslrootcert", let value?): rootCertificate = value
            default: throw StoreError.badURL(url, expected: "\(expected): the query takes schema, sslmode and sslrootcert, not '\(item.name)'")
            }
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: database.isEmpty ? nil : database, tls: try Self.tls(mode: mode, rootCertificate: rootCertificate)
        )
        configuration.options.maximumConnections = 8
        // A transaction left open by a connection that broke mid-way (a network fault) would
        // hold its row locks until PostgreSQL noticed; it is ended after this long instead.
        configuration.options.additionalStartupParameters = [("idle_in_transaction_session_timeout", "\(Self.idleTransactionTimeout)s")]
        if let schema {
            guard schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }), !schema.isEmpty else {
                throw StoreError.badSchema(schema)
            }
            configuration.options.additionalStartupParameters.append(("search_path", schema))
        }
        self.schema = schema
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        runner = Task { await client.run() }
    }

    /// TLS as libpq's `sslmode` says: `disable`, `prefer` (the default: encrypted when the server
    /// offers it, unchecked; `allow` is taken as `prefer`), `require` (encrypted; the server's
    /// certificate checked only when `sslrootcert` is given), `verify-ca` (signed by a trusted
    /// root) or `verify-full` (and issued for the host). The roots are `sslrootcert` (a PEM file)
    /// or the system's.
    static func tls(mode: String, rootCertificate: String?) throws(StoreError) -> PostgresClient.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let rootCertificate {
            guard FileManager.default.isReadableFile(atPath: rootCertificate) else {
                throw StoreError.badURL("sslrootcert=\(rootCertificate)", expected: "a readable PEM file with the certificate to trust")
            }
            tls.trustRoots = .file(rootCertificate)
        }
        switch mode {
        case "disable": return .disable
        case "prefer", "allow":
            tls.certificateVerification = .none
            return .prefer(tls)
        case "require":
            // As libpq: with a root certificate given, require also checks the server's.
            tls.certificateVerification = rootCertificate == nil ? .none : .noHostnameVerification
            return .require(tls)
        case "verify-ca":
            tls.certificateVerification = .noHostnameVerification
            return .require(tls)
        case "verify-full":
            tls.certificateVerification = .fullVerification
            return .require(tls)
        default:
            throw StoreError.badURL("sslmode=\(mode)", expected: "sslmode disable, prefer, require, verify-ca or verify-full")
        }
    }

    public func ping() async throws {
        _ = try await rows("SELECT 1")
    }

    public func close() async throws {
        runner.cancel()
        _ = await runner.value
    }

    /// Brings the schema to this version's layout, in one transaction. A statement that waits
    /// longer than ``PostgresSchema/migrationLockTimeout`` for a lock (a running node's
    /// long transaction, another node migrating) gives up, so that the queries queued behind it
    /// go on, and the migration is tried again, `lockAttempts` times in all.
    public func migrate() async throws {
        try await migrate(lockAttempts: 12)
    }

    func migrate(lockAttempts: Int) async throws {
        for attempt in 1... {
            do {
                return try await migrateOnce()
            } catch {
                // A layout this version does not know is said as such, not as a transaction's failure.
                if let refused = StoreError.cause(of: error) as? StoreError { throw refused }
                guard StoreError.sqlState(of: error) == "55P03" else { throw error }
                guard attempt < lockAttempts else {
                    throw StoreError.migrationLocked(tries: attempt, timeout: PostgresSchema.migrationLockTimeout, blockers: await lockHolders())
                }
                let holders = await lockHolders()
                logger.notice("migration: a lock is held elsewhere; trying again", metadata: ["attempt": "\(attempt)", "holders": "\(holders)"])
                try await Task.sleep(for: .seconds(1))
            }
        }
    }

    private func migrateOnce() async throws {
        try await client.withTransaction(logger: logger) { connection in
            // Two nodes starting together on one schema must not both create its tables: the
            // second waits here for as long as the first migrates (a large upgrade can take
            // minutes), then finds the layout done. Per schema (its name as PostgreSQL folds
            // it, however the node was told it): deployments in other schemas do not wait.
            try await connection.query(
                .sql("SELECT pg_advisory_xact_lock(7461001, hashtext(COALESCE(lower($1), current_schema(), current_setting('search_path'))))", [.text(self.schema)]),
                logger: logger
            )
            try await connection.query(.sql("SET LOCAL lock_timeout = '\(PostgresSchema.migrationLockTimeout)'"), logger: logger)
            if let schema = self.schema {
                try await connection.query(.sql("CREATE SCHEMA IF NOT EXISTS \(schema)"), logger: logger)
            }
            switch try await self.layoutState(connection) {
            case .current:
                // Nothing to change: no statement takes a lock on a table a running node uses.
                return
            case .newerReadable(let found):
                // A newer Herald's layout that this version can still work with: its statements
                // are left alone (running this version's would undo them).
                self.logger.notice("the schema has a newer layout this version works with; not migrating", metadata: ["layout": "\(found)"])
                return
            case .newer(let found, let oldestReader):
                throw StoreError.newerLayout(found, known: PostgresSchema.layoutVersion, oldestReader: oldestReader)
            case .older:
                break
            }
            // A database from before the batch queue: its queued rows are put in batches below,
            // due when the last lease a node held on one of them ends (a node that stopped
            // without giving its leases back may still be sending them).
            let batchesExisted = try await connection.query("SELECT to_regclass('delivery_batches') IS NOT NULL", logger: logger)
                .collect().first?.decode(Bool.self) ?? false
            // Columns the tables lack are added first, before any statement below takes a lock
            // on them that adding a column would have to wait behind.
            try await self.addMissingColumns(connection)
            // Batches from before they counted their rows get the columns, and their counts
            // from the rows (before any claim can run: this transaction holds the lock).
            let countsExisted = try await connection.query(
                "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'delivery_batches' AND column_name = 'queued'",
                logger: logger
            ).collect().isEmpty == false
            if batchesExisted && !countsExisted {
                try await connection.query(
                    """
                    ALTER TABLE delivery_batches ADD COLUMN queued BIGINT NOT NULL DEFAULT 0, ADD COLUMN retrying BIGINT NOT NULL DEFAULT 0,
                        ADD COLUMN queued_at DOUBLE PRECISION NOT NULL DEFAULT 0
                    """, logger: logger
                )
                try await connection.query(
                    """
                    UPDATE delivery_batches q SET queued = c.queued, retrying = c.retrying, queued_at = c.queued_at
                    FROM delivery_batches q2 CROSS JOIN LATERAL (
                        SELECT COUNT(*) AS queued, COUNT(d.retry_at) AS retrying, COALESCE(MIN(d.queued_at), 0) AS queued_at FROM deliveries d
                        WHERE d.notification_id = q2.notification_id AND d.id BETWEEN q2.first_id AND q2.last_id AND d.state = 'queued') c
                    WHERE q.id = q2.id
                    """, logger: logger
                )
            }
            for statement in PostgresSchema.statements {
                try await connection.query(.sql(statement), logger: logger)
            }
            if !batchesExisted {
                try await connection.query(
                    .sql(
                        """
                        INSERT INTO delivery_batches (notification_id, first_id, last_id, due_at, queued, retrying, queued_at)
                        SELECT notification_id, MIN(id), MAX(id), GREATEST(MIN(COALESCE(retry_at, 0)), COALESCE(MAX(lease_until), 0)),
                               COUNT(*), COUNT(retry_at), MIN(queued_at)
                        FROM deliveries WHERE state = 'queued'
                        GROUP BY notification_id, id / $1
                        """,
                        [.int(Int64(PostgresSchema.batchRows))]
                    ), logger: logger
                )
            }
            // Pages left half free for recorded outcomes, on a table made before (new pages only).
            let options = try await connection.query(
                "SELECT COALESCE(array_to_string(reloptions, ','), '') FROM pg_class WHERE oid = to_regclass('deliveries')", logger: logger
            ).collect().first?.decode(String.self) ?? ""
            if !options.contains("fillfactor=\(PostgresSchema.deliveriesFillFactor)") {
                try await connection.query(.sql("ALTER TABLE deliveries SET (fillfactor = \(PostgresSchema.deliveriesFillFactor))"), logger: logger)
            }
            // And to the tables just made.
            try await self.addMissingColumns(connection)
            for statement in PostgresSchema.afterAddedColumns {
                try await connection.query(.sql(statement), logger: logger)
            }
            try await connection.query(
                .sql(
                    """
                    INSERT INTO herald_layout (id, version, oldest_reader, revision, fingerprint) VALUES (1, $1, $2, $3, $4)
                    ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, oldest_reader = EXCLUDED.oldest_reader, revision = EXCLUDED.revision,
                        fingerprint = EXCLUDED.fingerprint
                    """,
                    [
                        .int(Int64(PostgresSchema.layoutVersion)), .int(Int64(PostgresSchema.oldestReader)), .int(Int64(PostgresSchema.revision)),
                        .text(PostgresSchema.fingerprint),
                    ]
                ), logger: logger
            )
        }
    }

    /// The other sessions holding locks on this schema's tables (process id, application,
    /// state, how long their transaction has run; not their statements, which may hold tokens).
    private func lockHolders() async -> String {
        let found = try? await rows(
            """
            SELECT string_agg(DISTINCT format('pid %s %s %s for %s s', a.pid, NULLIF(a.application_name, ''), a.state,
                       COALESCE(round(extract(epoch FROM clock_timestamp() - a.xact_start))::text, '?')), '; ')
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid JOIN pg_class c ON c.oid = l.relation
            WHERE l.granted AND l.pid <> pg_backend_pid() AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND c.relnamespace = to_regnamespace(current_schema())
            """
        ).first?.decode(String?.self)
        return (found ?? nil) ?? "none seen now"
    }

    /// Where the schema's layout stands against this version's.
    enum LayoutState: Equatable {
        /// This layout and revision, with everything its statements make still there.
        case current
        /// Older (a lower layout or revision, or none), or missing something: migrate.
        case older
        /// Newer (a higher layout, or revision of this layout), and this version is among
        /// those that can work with it.
        case newerReadable(Int)
        /// Newer, and this version is too old to work with it.
        case newer(Int, oldestReader: Int)
    }

    private func layoutState(_ connection: PostgresConnection) async throws -> LayoutState {
        guard try await connection.query("SELECT to_regclass('herald_layout') IS NOT NULL", logger: logger).collect().first?.decode(Bool.self) == true,
            let row = try await connection.query("SELECT version, oldest_reader, revision FROM herald_layout", logger: logger).collect().first
        else { return .older }
        let (version, oldestReader, revision) = try row.decode((Int, Int, Int).self)
        let found = (version, revision)
        let ours = (PostgresSchema.layoutVersion, PostgresSchema.revision)
        if found > ours {
            return oldestReader <= PostgresSchema.layoutVersion ? .newerReadable(version) : .newer(version, oldestReader: oldestReader)
        }
        guard found == ours else { return .older }
        // Everything the statements make is still there (an index or function dropped by hand
        // is made again).
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(PostgresSchema.expectedObjects)
        let missing = try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT (SELECT COUNT(*) FROM unnest($1::text[]) AS o(name) WHERE to_regclass(o.name) IS NULL)
                        + (CASE WHEN to_regproc('herald_claim') IS NULL OR to_regproc('herald_record') IS NULL THEN 1 ELSE 0 END)
                    """,
                binds: bindings
            ), logger: logger
        ).collect().first?.decode(Int.self) ?? 1
        return missing == 0 ? .current : .older
    }

    /// Adds the columns of ``PostgresSchema/addedColumns`` that existing tables lack.
    private func addMissingColumns(_ connection: PostgresConnection) async throws {
        for added in PostgresSchema.addedColumns {
            let missing = try await connection.query(
                .sql(
                    """
                    SELECT to_regclass($1) IS NOT NULL AND NOT EXISTS (
                        SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2)
                    """,
                    [.text(added.table), .text(added.column)]
                ), logger: logger
            ).collect().first?.decode(Bool.self) ?? false
            if missing {
                try await connection.query(.sql("ALTER TABLE \(added.table) ADD COLUMN \(added.column) \(added.type)"), logger: logger)
            }
        }
    }

    /// Runs a query and returns its rows.
    func rows(_ text: String, _ values: [PostgresValue] = []) async throws -> [PostgresRow] {
        try await client.query(.sql(text, values), logger: logger).collect()
    }

    /// Runs a statement and returns how many rows it changed (it must end with `RETURNING 1`).
    func changes(_ text: String, _ values: [PostgresValue] = []) async throws -> Int {
        try await rows(text, values).count
    }

    // MARK: Apps and keys

    public func insertApp(_ app: StoredApp) async throws {
        _ = try await rows("INSERT INTO apps (id, body) VALUES ($1, $2)", [.text(app.id), .text(try StoreCoding.encode(app.sealed(with: sealer)))])
    }

    public func updateApp(_ app: StoredApp) async throws {
        _ = try await rows("UPDATE apps SET body = $1 WHERE id = $2", [.text(try StoreCoding.encode(app.sealed(with: sealer))), .text(app.id)])
    }

    public func app(id: String) async throws -> StoredApp? {
        try await rows("SELECT body FROM apps WHERE id = $1", [.text(id)]).first.map {
            try StoreCoding.decode(StoredApp.self, from: try $0.decode(String.self)).opened(with: sealer)
        }
    }

    public func apps() async throws -> [StoredApp] {
        try await rows("SELECT body FROM apps ORDER BY id").map {
            try StoreCoding.decode(StoredApp.self, from: try $0.decode(String.self)).opened(with: sealer)
        }
    }

    public func deleteApp(id: String) async throws -> Bool {
        let logger = logger
        return try await client.withTransaction(logger: logger) { connection in
            let found = try await connection.query(.sql("SELECT 1 FROM apps WHERE id = $1 FOR UPDATE", [.text(id)]), logger: logger).collect()
            guard !found.isEmpty else { return false }
            for table in ["api_keys", "schedules", "webhook_events", "rate_buckets"] {
                try await connection.query(.sql("DELETE FROM \(table) WHERE app_id = $1", [.text(id)]), logger: logger)
            }
            try await connection.query(.sql("DELETE FROM apps WHERE id = $1", [.text(id)]), logger: logger)
            // What is left of it is deleted in the background, a batch at a time.
            try await connection.query(
                .sql(
                    "INSERT INTO deleted_apps (id, deleted_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING",
                    [.text(id), .double(Date().timeIntervalSince1970)]
                ), logger: logger
            )
            return true
        }
    }

    public func purgeDeletedApps(limit: Int) async throws -> Int {
        var deleted = 0
        for (app, deletedAt) in try await rows("SELECT id, deleted_at FROM deleted_apps ORDER BY deleted_at LIMIT 10").map({ try $0.decode((String, Double).self) })
        where deleted < limit {
            var ofThisApp = 0
            // Its notifications leave the queue first (their counts would stay behind otherwise).
            _ = try await rows(
                """
                WITH gone AS (
                    SELECT id FROM delivery_batches WHERE notification_id IN (SELECT id FROM notifications WHERE app_id = $1) ORDER BY id FOR UPDATE)
                DELETE FROM delivery_batches AS b USING gone WHERE b.id = gone.id
                """,
                [.text(app)]
            )
            // Each through its index on app_id; queued deliveries too (a node that claimed one
            // finds no app and records it as failed; its write then changes nothing).
            for (table, key) in [("deliveries", "id"), ("notifications", "id"), ("device_tags", "ctid"), ("devices", "ctid")] where deleted < limit {
                let count = try await changes(
                    "DELETE FROM \(table) WHERE \(key) IN (SELECT \(key) FROM \(table) WHERE app_id = $1 LIMIT $2) RETURNING 1",
                    [.text(app), .int(Int64(limit - deleted))]
                )
                deleted += count
                ofThisApp += count
            }
            // Kept a while after its rows are gone: a request that was under way when the app
            // was deleted may still write some.
            if ofThisApp == 0 && deletedAt < Date().timeIntervalSince1970 - SQLiteStore.tombstoneLifetime {
                _ = try await rows("DELETE FROM deleted_apps WHERE id = $1", [.text(app)])
            }
        }
        return deleted
    }

    public func deleteAdminKey(id: String) async throws -> AdminKeyDeletion {
        let logger = logger
        return try await client.withTransaction(logger: logger) { connection in
            // The admin keys are locked, so two revocations at once are counted one after the other.
            let admins = try await connection.query("SELECT id FROM api_keys WHERE app_id IS NULL ORDER BY id FOR UPDATE", logger: logger)
                .collect().map { try $0.decode(String.self) }
            guard admins.contains(id) else { return .notFound }
            guard admins.count > 1 else { return .last }
            try await connection.query(.sql("DELETE FROM api_keys WHERE id = $1 AND app_id IS NULL", [.text(id)]), logger: logger)
            return .deleted
        }
    }

    public func insertKey(_ key: StoredAPIKey) async throws {
        _ = try await rows(
            "INSERT INTO api_keys (id, app_id, secret_hash, created_at) VALUES ($1, $2, $3, $4)",
            [.text(key.id), .text(key.appID), .text(key.secretHash), .double(key.createdAt.timeIntervalSince1970)]
        )
    }

    public func key(secretHash: String) async throws -> StoredAPIKey? {
        try await rows("SELECT id, app_id, secret_hash, created_at FROM api_keys WHERE secret_hash = $1", [.text(secretHash)])
            .first.map(Self.key(from:))
    }

    public func keys(appID: String?) async throws -> [StoredAPIKey] {
        try await rows(
            "SELECT id, app_id, secret_hash, created_at FROM api_keys WHERE app_id IS NOT DISTINCT FROM $1 ORDER BY created_at, id", [.text(appID)]
        ).map(Self.key(from:))
    }

    public func deleteKey(id: String, appID: String?) async throws -> Bool {
        try await changes("DELETE FROM api_keys WHERE id = $1 AND app_id IS NOT DISTINCT FROM $2 RETURNING 1", [.text(id), .text(appID)]) > 0
    }

    @discardableResult
    public func insertSession(_ session: ConsoleSession, keepingAtMost limit: Int) async throws -> Int {
        _ = try await rows(
            "INSERT INTO console_sessions (secret_hash, key_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
            [.text(session.secretHash), .text(session.keyID), .double(session.createdAt.timeIntervalSince1970), .double(session.expiresAt.timeIntervalSince1970)]
        )
        return try await changes(
            """
            DELETE FROM console_sessions WHERE key_id = $1 AND secret_hash IN (
                SELECT secret_hash FROM console_sessions WHERE key_id = $1 ORDER BY created_at DESC, secret_hash OFFSET $2) RETURNING 1
            """,
            [.text(session.keyID), .int(Int64(max(limit, 1)))]
        )
    }

    public func session(secretHash: String, now: Date) async throws -> (session: ConsoleSession, key: StoredAPIKey)? {
        guard let row = try await rows(
            """
            SELECT k.id, k.app_id, k.secret_hash, k.created_at, s.created_at, s.expires_at FROM console_sessions s
            JOIN api_keys k ON k.id = s.key_id WHERE s.secret_hash = $1 AND s.expires_at > $2
            """,
            [.text(secretHash), .double(now.timeIntervalSince1970)]
        ).first else { return nil }
        let (id, appID, hash, keyCreated, created, expires) = try row.decode((String, String?, String, Double, Double, Double).self)
        let key = StoredAPIKey(id: id, appID: appID, secretHash: hash, createdAt: Date(timeIntervalSince1970: keyCreated))
        return (ConsoleSession(
            secretHash: secretHash, keyID: id, createdAt: Date(timeIntervalSince1970: created), expiresAt: Date(timeIntervalSince1970: expires)
        ), key)
    }

    public func deleteSession(secretHash: String) async throws {
        _ = try await rows("DELETE FROM console_sessions WHERE secret_hash = $1", [.text(secretHash)])
    }

    public func purgeSessions(now: Date) async throws -> Int {
        try await changes(
            "DELETE FROM console_sessions WHERE expires_at <= $1 OR key_id NOT IN (SELECT id FROM api_keys) RETURNING 1",
            [.double(now.timeIntervalSince1970)]
        )
    }

    private static func key(from row: PostgresRow) throws -> StoredAPIKey {
        let (id, appID, hash, created) = try row.decode((String, String?, String, Double).self)
        return StoredAPIKey(id: id, appID: appID, secretHash: hash, createdAt: Date(timeIntervalSince1970: created))
    }

    // MARK: Devices

    public func upsertDevices(_ devices: [StoredDevice]) async throws -> [StoredDevice] {
        let stored = devices.map { device in
            var device = device
            device.state = .active
            device.stateReason = nil
            device.stateChangedAt = nil
            return device
        }
        // Set-based, three statements per call whatever its size: the rows go as arrays side by
        // side (unnest), so 10,000 devices cost three round trips, not two per device. A token
        // given twice in one call keeps its last registration (ON CONFLICT cannot touch a row
        // twice in one statement). Nullable text goes with a bit per column in `nulls`, so an
        // empty string stays an empty string.
        var latest: [String: Int] = [:]
        for (index, device) in stored.enumerated() { latest[device.appID + "\u{1F}" + device.token] = index }
        let unique = stored.indices.filter { latest[stored[$0].appID + "\u{1F}" + stored[$0].token] == $0 }.map { stored[$0] }
        try await client.withTransaction(logger: logger) { connection in
            for start in stride(from: 0, to: unique.count, by: Self.upsertBatchSize) {
                try await Self.upsert(Array(unique[start..<min(start + Self.upsertBatchSize, unique.count)]), on: connection, logger: logger)
            }
        }
        return stored
    }

    /// Devices written per statement by ``upsertDevices(_:)``.
    static let upsertBatchSize = 10_000

    private static func upsert(_ devices: [StoredDevice], on connection: PostgresConnection, logger: Logger) async throws {
        var rows = PostgresBindings(capacity: 12)
        rows.append(devices.map(\.appID))
        rows.append(devices.map(\.token))
        rows.append(devices.map(\.environment.rawValue))
        rows.append(devices.map(\.kind.rawValue))
        rows.append(devices.map { $0.userID ?? "" })
        rows.append(devices.map { StoreCoding.encodeTags($0.tags) })
        rows.append(devices.map { $0.locale ?? "" })
        rows.append(devices.map { $0.timeZone ?? "" })
        rows.append(devices.map { $0.appVersion ?? "" })
        rows.append(devices.map(\.registeredAt.timeIntervalSince1970))
        rows.append(devices.map { $0.encryptionKey ?? "" })
        rows.append(devices.map { device in
            [device.userID, device.locale, device.timeZone, device.appVersion, device.encryptionKey].enumerated()
                .reduce(Int64(0)) { bits, field in field.element == nil ? bits | (1 << field.offset) : bits }
        })
        var cleared = PostgresBindings(capacity: 2)
        cleared.append(devices.map(\.appID))
        cleared.append(devices.map(\.token))
        let tagRows = devices.flatMap { device in Set(device.tags).sorted().map { (device.appID, device.token, $0) } }
        var tags = PostgresBindings(capacity: 3)
        tags.append(tagRows.map(\.0))
        tags.append(tagRows.map(\.1))
        tags.append(tagRows.map(\.2))
        try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO devices (\(SQLiteStore.deviceColumns))
                    SELECT v.app_id, v.token, v.environment, v.kind, CASE WHEN v.nulls & 1 = 0 THEN v.user_id END, v.tags,
                        CASE WHEN v.nulls & 2 = 0 THEN v.locale END, CASE WHEN v.nulls & 4 = 0 THEN v.time_zone END,
                        CASE WHEN v.nulls & 8 = 0 THEN v.app_version END, v.registered_at, 'active', NULL, NULL,
                        CASE WHEN v.nulls & 16 = 0 THEN v.encryption_key END
                    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                                $9::text[], $10::float8[], $11::text[], $12::bigint[])
                        AS v(app_id, token, environment, kind, user_id, tags, locale, time_zone, app_version, registered_at, encryption_key, nulls)
                    ON CONFLICT (app_id, token) DO UPDATE SET environment = excluded.environment, kind = excluded.kind,
                        user_id = excluded.user_id, tags = excluded.tags, locale = excluded.locale, time_zone = excluded.time_zone,
                        app_version = excluded.app_version, registered_at = excluded.registered_at, state = 'active',
                        state_reason = NULL, state_changed_at = NULL, encryption_key = excluded.encryption_key
                    """, binds: rows
            ), logger: logger
        )
        try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    DELETE FROM device_tags t USING unnest($1::text[], $2::text[]) AS v(app_id, token)
                    WHERE t.app_id = v.app_id AND t.token = v.token
                    """, binds: cleared
            ), logger: logger
        )
        if !tagRows.isEmpty {
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO device_tags (app_id, token, tag) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
                        """, binds: tags
                ), logger: logger
            )
        }
    }

    public func device(appID: String, token: String) async throws -> StoredDevice? {
        try await rows("SELECT \(SQLiteStore.deviceColumns) FROM devices WHERE app_id = $1 AND token = $2", [.text(appID), .text(token)])
            .first.map(Self.device(from:))
    }

    public func devices(appID: String, userID: String) async throws -> [StoredDevice] {
        try await rows(
            "SELECT \(SQLiteStore.deviceColumns) FROM devices WHERE app_id = $1 AND user_id = $2 ORDER BY token", [.text(appID), .text(userID)]
        ).map(Self.device(from:))
    }

    public func encryptionKeys(appID: String, tokens: [String]) async throws -> [String: String] {
        guard !tokens.isEmpty else { return [:] }
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(appID)
        bindings.append(tokens)
        var keys: [String: String] = [:]
        let rows = try await client.query(
            PostgresQuery(
                unsafeSQL: "SELECT token, encryption_key FROM devices WHERE app_id = $1 AND token = ANY($2::text[]) AND encryption_key IS NOT NULL",
                binds: bindings
            ), logger: logger
        )
        for try await (token, key) in rows.decode((String, String).self) { keys[token] = key }
        return keys
    }

    public func deleteDevice(appID: String, token: String) async throws -> Bool {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query(.sql("DELETE FROM device_tags WHERE app_id = $1 AND token = $2", [.text(appID), .text(token)]), logger: logger)
            return try await connection.query(
                .sql("DELETE FROM devices WHERE app_id = $1 AND token = $2 RETURNING 1", [.text(appID), .text(token)]), logger: logger
            ).collect().count > 0
        }
    }

    public func applyFeedback(_ feedback: TokenFeedback) async throws -> Bool {
        let registeredBefore = feedback.state == .unregistered ? feedback.timestamp.timeIntervalSince1970 : Double.greatestFiniteMagnitude
        return try await changes(
            """
            UPDATE devices SET state = $1, state_reason = $2, state_changed_at = $3
            WHERE app_id = $4 AND token = $5 AND state = 'active' AND registered_at <= $6 RETURNING 1
            """,
            [
                .text(feedback.state.rawValue), .text(feedback.reason), .double(feedback.timestamp.timeIntervalSince1970), .text(feedback.appID),
                .text(feedback.token), .double(registeredBefore),
            ]
        ) > 0
    }

    public func timeZones(appID: String, audience: Audience) async throws -> [String] {
        let filter = AudienceFilter(appID: appID, audience: audience) { "$\($0)" }
        return try await rows(
            "SELECT DISTINCT COALESCE(d.time_zone, '') FROM devices d WHERE \(filter.condition) ORDER BY 1", filter.arguments.map { .text($0) }
        ).map { try $0.decode(String.self) }
    }

    static func device(from row: PostgresRow) throws -> StoredDevice {
        let (appID, token, environment, kind, userID, tags, locale, timeZone, appVersion, registeredAt, state, reason, changedAt, key) = try row.decode(
            (String, String, String, String, String?, String, String?, String?, String?, Double, String, String?, Double?, String?).self
        )
        return StoredDevice(
            appID: appID, token: token, environment: APNsEnvironment(rawValue: environment), kind: DeviceKind(rawValue: kind) ?? .alert,
            userID: userID, tags: StoreCoding.decodeTags(tags), locale: locale, timeZone: timeZone, appVersion: appVersion,
            registeredAt: Date(timeIntervalSince1970: registeredAt), state: DeviceState(rawValue: state) ?? .active, stateReason: reason,
            stateChangedAt: changedAt.map(Date.init(timeIntervalSince1970:)), encryptionKey: key
        )
    }
}
