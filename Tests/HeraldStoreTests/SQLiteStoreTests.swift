import Foundation
import GRDB
import HeraldCore
import HeraldStore
import Testing

/// What only the SQLite backend does: its layout migration and the lock that keeps a file's
/// deliveries to one process.
@Suite("SQLite store")
struct SQLiteStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func newPath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("herald.sqlite").path
    }

    @Test("a file in the first layout is moved over: devices, notifications and every delivery kept, queued ones still sent")
    func movesTheFirstLayout() async throws {
        let path = try newPath()
        // The tables as the first release left them (no user_version).
        let queue = try DatabaseQueue(path: path)
        let created = now.timeIntervalSince1970
        // The notification's body as the store writes it (JSON, dates in seconds since 1970).
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let stored = StoredNotification(
            id: "n1", appID: "a1", message: Data("{}".utf8), audience: Audience(.everyone), idempotencyKey: "order-7", createdAt: now, audienceSize: 3
        )
        let body = String(decoding: try encoder.encode(stored), as: UTF8.self)
        try await queue.write { db in
            try db.execute(sql: """
                CREATE TABLE apps (id TEXT PRIMARY KEY, body TEXT NOT NULL);
                CREATE TABLE devices (
                    app_id TEXT NOT NULL, token TEXT NOT NULL, environment TEXT NOT NULL, kind TEXT NOT NULL,
                    user_id TEXT, tags TEXT NOT NULL, locale TEXT, time_zone TEXT, app_version TEXT,
                    registered_at REAL NOT NULL, state TEXT NOT NULL, state_reason TEXT, state_changed_at REAL,
                    PRIMARY KEY (app_id, token));
                CREATE INDEX devices_user ON devices (app_id, user_id);
                CREATE TABLE notifications (
                    id TEXT PRIMARY KEY, app_id TEXT NOT NULL, idempotency_key TEXT, created_at REAL NOT NULL, body TEXT NOT NULL);
                CREATE INDEX notifications_idempotency ON notifications (app_id, idempotency_key, created_at);
                CREATE TABLE deliveries (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, notification_id TEXT NOT NULL, app_id TEXT NOT NULL, token TEXT NOT NULL,
                    environment TEXT NOT NULL, locale TEXT, state TEXT NOT NULL, lease_owner TEXT, lease_until REAL,
                    attempts INTEGER NOT NULL DEFAULT 0, status INTEGER, reason TEXT, apns_id TEXT,
                    queued_at REAL NOT NULL, finished_at REAL);
                CREATE INDEX deliveries_ready ON deliveries (id, lease_until) WHERE state = 'queued';
                CREATE INDEX deliveries_notification ON deliveries (notification_id, id);
                CREATE INDEX deliveries_device ON deliveries (app_id, token, id);
                """)
            for token in ["aa01", "aa02"] {
                try db.execute(
                    sql: "INSERT INTO devices VALUES ('a1', ?, 'development', 'alert', 'u1', '[]', 'fr-FR', NULL, NULL, ?, 'active', NULL, NULL)",
                    arguments: [token, created]
                )
            }
            try db.execute(sql: "INSERT INTO notifications VALUES ('n1', 'a1', 'order-7', ?, ?)", arguments: [created, body])
            // Sent to aa01; queued (and once leased by a node that died) for aa02; sent to aa03,
            // whose registration was deleted since.
            try db.execute(
                sql: """
                    INSERT INTO deliveries (id, notification_id, app_id, token, environment, locale, state, lease_owner, lease_until, attempts,
                        status, queued_at, finished_at) VALUES
                    (7, 'n1', 'a1', 'aa01', 'development', 'fr-FR', 'sent', NULL, NULL, 1, 200, ?, ?),
                    (8, 'n1', 'a1', 'aa02', 'development', 'fr-FR', 'queued', 'dead-node', ?, 1, NULL, ?, NULL),
                    (9, 'n1', 'a1', 'aa03', 'development', NULL, 'sent', NULL, NULL, 1, 200, ?, ?)
                    """,
                arguments: [created, created + 1, created + 5, created, created, created + 1]
            )
        }
        try queue.close()

        let store = try SQLiteStore(path: path)
        try await store.migrate()
        try await store.migrate()  // a second start finds the current layout and changes nothing
        #expect(try await store.device(appID: "a1", token: "aa02")?.locale == "fr-FR")
        #expect(try await store.devices(appID: "a1", userID: "u1").map(\.token) == ["aa01", "aa02"])
        let notification = try #require(try await store.notification(appID: "a1", id: "n1"))
        #expect(notification == stored)
        // The idempotency key still finds it.
        let again = try await store.enqueue(
            StoredNotification(id: "other", appID: "a1", message: Data("{}".utf8), audience: Audience(.everyone), idempotencyKey: "order-7", createdAt: now),
            idempotentSince: now.addingTimeInterval(-60)
        )
        #expect(again.notification.id == "n1")
        var counts = try await store.counts(notificationID: "n1")
        #expect(counts.sent == 2 && counts.queued == 1)
        // aa03's registration was deleted: its history stays, the device does not come back.
        #expect(try await store.deliveries(notificationID: "n1", limit: 10).map(\.token) == ["aa01", "aa02", "aa03"])
        #expect(try await store.deliveries(appID: "a1", token: "aa03", limit: 10).map(\.notificationID) == ["n1"])
        #expect(try await store.device(appID: "a1", token: "aa03") == nil)
        #expect(try await store.deliveries(appID: "a1", token: "aa01", limit: 10).map(\.notificationID) == ["n1"])

        // The dead node's lease is not carried over: the queued row is claimed at once, and
        // keeps its id and its attempt.
        let claimed = try await store.claim(owner: "n", limit: 10, lease: 30, now: now)
        #expect(claimed == [ClaimedDelivery(id: 8, notificationID: "n1", appID: "a1", token: "aa02", environment: .development, locale: "fr-FR", attempts: 2, queuedAt: now)])
        try await store.record([DeliveryOutcome(id: 8, state: .sent, status: 200, finishedAt: now)])
        counts = try await store.counts(notificationID: "n1")
        #expect(counts.sent == 3 && counts.queued == 0)
        // New rows continue after the old ids.
        let next = try await store.enqueue(
            StoredNotification(id: "n2", appID: "a1", message: Data("{}".utf8), audience: Audience(.everyone), createdAt: now),
            idempotentSince: now
        )
        #expect(next.notification.audienceSize == 2)
        #expect(try await store.claim(owner: "n", limit: 10, lease: 30, now: now).map(\.id).allSatisfy { $0 > 9 })
        try await store.close()
    }

    @Test("a layout 3 file gains the devices' encryption_key and the notifications' cancelled_at columns; its rows are kept")
    func addsTheEncryptionKeyColumn() async throws {
        let path = try newPath()
        let old = try SQLiteStore(path: path)
        try await old.migrate()
        _ = try await old.upsertDevice(StoredDevice(appID: "a1", token: "aa01", environment: .production, registeredAt: now))
        try await old.close()
        // Back to layout 3: the column dropped, the version set back.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "ALTER TABLE devices DROP COLUMN encryption_key")
            for index in ["notifications_listed", "notifications_created"] { try db.execute(sql: "DROP INDEX \(index)") }
            try db.execute(sql: "ALTER TABLE notifications DROP COLUMN cancelled_at")
            try db.execute(sql: "PRAGMA user_version = 3")
        }
        try queue.close()

        let store = try SQLiteStore(path: path)
        try await store.migrate()
        #expect(try await store.device(appID: "a1", token: "aa01")?.encryptionKey == nil)
        _ = try await store.upsertDevice(StoredDevice(appID: "a1", token: "aa01", environment: .production, registeredAt: now, encryptionKey: "k1"))
        #expect(try await store.encryptionKeys(appID: "a1", tokens: ["aa01", "aa02"]) == ["aa01": "k1"])
        let sent = try await store.enqueue(
            StoredNotification(id: "n1", appID: "a1", message: Data("{}".utf8), audience: Audience(.everyone), createdAt: now), idempotentSince: now
        ).notification
        #expect(try await store.cancel(appID: "a1", notificationID: sent.id, now: now)?.cancelledAt == now)
        try await store.close()
        let version = try await DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
        #expect(version == 6)
    }

    @Test("a file from a newer Herald is refused, and left as it was")
    func refusesANewerLayout() async throws {
        let path = try newPath()
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in try db.execute(sql: "PRAGMA user_version = 99") }
        try queue.close()
        let store = try SQLiteStore(path: path)
        await #expect(throws: StoreError.newerLayout(99, known: 6)) { try await store.migrate() }
        try await store.close()
        let version = try await DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
        #expect(version == 99)
    }

    @Test("one process delivers from a file: a second store cannot claim until the first is closed, but can register devices")
    func oneDeliveringStorePerFile() async throws {
        let path = try newPath()
        let first = try SQLiteStore(path: path)
        try await first.migrate()
        try await first.prepareToDeliver()
        let second = try SQLiteStore(path: path)
        _ = try await second.upsertDevice(StoredDevice(appID: "a1", token: "aa01", environment: .development, registeredAt: now))
        _ = try await second.enqueue(
            StoredNotification(id: "n1", appID: "a1", message: Data("{}".utf8), audience: Audience(.everyone), createdAt: now), idempotentSince: now
        )
        await #expect(throws: StoreError.deliveryLockHeld(path)) { try await second.prepareToDeliver() }
        await #expect(throws: StoreError.deliveryLockHeld(path)) {
            try await second.claim(owner: "b", limit: 10, lease: 30, now: now)
        }
        #expect(try await first.claim(owner: "a", limit: 10, lease: 30, now: now).map(\.token) == ["aa01"])
        try await first.close()
        // The first process is gone, and its lease with it.
        #expect(try await second.claim(owner: "b", limit: 10, lease: 30, now: now).map(\.token) == ["aa01"])
        try await second.close()
    }

    @Test("the delivery lock is on the file, not the path: a store reached through a symlink cannot deliver; a hard-linked file is refused")
    func deliveryLockThroughLinks() async throws {
        let path = try newPath()
        let first = try SQLiteStore(path: path)
        try await first.migrate()
        try await first.prepareToDeliver()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let symlink = folder.appendingPathComponent("through-a-symlink.sqlite").path
        let hardLink = folder.appendingPathComponent("through-a-hard-link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: symlink, withDestinationPath: path)
        try FileManager.default.linkItem(atPath: path, toPath: hardLink)
        let second = try SQLiteStore(path: symlink)
        await #expect(throws: StoreError.deliveryLockHeld(symlink)) { try await second.prepareToDeliver() }
        try await second.close()
        // A second name of the same file is refused before SQLite opens it: its WAL, named after
        // the path, would be a second log of one database.
        #expect(throws: StoreError.hardLinked(hardLink, links: 2)) { try SQLiteStore(path: hardLink) }
        try await first.close()
    }

    @Test("Apple credentials and webhook secrets are sealed in the file; another key cannot open them; keys rotate")
    func secretsAtRest() async throws {
        let path = try newPath()
        let oldKey = [UInt8](repeating: 7, count: 32)
        let newKey = [UInt8](repeating: 9, count: 32)
        var app = StoredApp(id: "a1", name: "A", bundleID: "com.example.a", teamID: "TEAM123456", createdAt: now)
        app.credentials = [
            AppCredential(environment: .production, secret: .token(keyID: "KEY1234567", pem: "-----BEGIN PRIVATE KEY-----\nsecret-pem\n-----END PRIVATE KEY-----")),
            AppCredential(environment: .development, secret: .pkcs12(base64: "cDEyLWJ5dGVz", password: "p12-password")),
        ]
        app.webhookSecret = "whsec_webhook-secret"
        // Written before encryption was on: plain in the file.
        let plain = try SQLiteStore(path: path)
        try await plain.migrate()
        try await plain.insertApp(app)
        try await plain.close()

        func rawBody() async throws -> String {
            try await DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "SELECT body FROM apps") ?? "" }
        }
        #expect(try await rawBody().contains("secret-pem"))
        let sealing = try SQLiteStore(path: path, sealer: SecretSealer(key: oldKey))
        #expect(try await sealing.app(id: "a1") == app)
        try await sealing.resealSecrets()
        let sealed = try await rawBody()
        for secret in ["secret-pem", "p12-password", "cDEyLWJ5dGVz", "whsec_webhook-secret"] { #expect(!sealed.contains(secret), "\(secret) in the file") }
        #expect(sealed.contains(SecretSealer.prefix))
        #expect(try await sealing.app(id: "a1") == app)
        try await sealing.close()

        let wrongKey = try SQLiteStore(path: path, sealer: SecretSealer(key: newKey))
        await #expect(throws: StoreError.self) { try await wrongKey.app(id: "a1") }
        try await wrongKey.close()
        // Rotation: the new key current, the old one still accepted; after the reseal the old
        // key can go.
        let rotating = try SQLiteStore(path: path, sealer: SecretSealer(key: newKey, previous: [oldKey]))
        try await rotating.resealSecrets()
        try await rotating.close()
        let rotated = try SQLiteStore(path: path, sealer: SecretSealer(key: newKey))
        #expect(try await rotated.apps() == [app])
        try await rotated.close()
    }

    @Test("the key file beside the database is made once, readable by its owner only; HERALD_SECRET_KEY is base64 or hex")
    func keyFile() throws {
        let path = try newPath() + ".key"
        _ = try SecretSealer.keyFile(at: path)
        let first = try #require(FileManager.default.contents(atPath: path))
        _ = try SecretSealer.keyFile(at: path)
        #expect(FileManager.default.contents(atPath: path) == first)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(try SecretSealer.parseKey(String(repeating: "ab", count: 32)) == [UInt8](repeating: 0xab, count: 32))
        #expect(try SecretSealer.parseKey(Data(repeating: 1, count: 32).base64EncodedString()) == [UInt8](repeating: 1, count: 32))
        #expect(throws: StoreError.self) { try SecretSealer.parseKey("short") }
    }

    @Test("a new database file is readable by its owner only")
    func newFileIsPrivate() async throws {
        let path = try newPath()
        let store = try SQLiteStore(path: path)
        try await store.migrate()
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try await store.close()
    }

    @Test("a fan-out cut short by a crash is finished at the next start: every device queued once, the audience counted")
    func finishesAnInterruptedFanOut() async throws {
        let path = try newPath()
        let devices = 12_000  // three chunks
        let store = try SQLiteStore(path: path)
        try await store.migrate()
        _ = try await store.upsertDevices((0..<devices).map { index in
            StoredDevice(appID: "a1", token: String(format: "%08x", index) + String(repeating: "ab", count: 28), environment: .development, registeredAt: now)
        })
        let sent = try await store.enqueue(
            StoredNotification(id: "n1", appID: "a1", message: Data("{}".utf8), audience: Audience(.everyone), createdAt: now), idempotentSince: now
        ).notification
        #expect(sent.audienceSize == devices)
        try await store.close()

        // What a crash after the first chunk leaves: one chunk queued, the cursor at its last
        // token, the audience not counted yet.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM deliveries WHERE id >= (SELECT MIN(id) FROM deliveries) + 5000")
            try db.execute(sql: """
                UPDATE notifications SET body = replace(body, '"audienceSize":\(devices)', '"audienceSize":0'),
                    fanout_after = (SELECT d.token FROM deliveries q JOIN devices d ON d.id = q.device ORDER BY q.id DESC LIMIT 1)
                """)
        }
        try queue.close()

        let restarted = try SQLiteStore(path: path)
        try await restarted.migrate()
        #expect(try await restarted.counts(notificationID: "n1").queued == 5_000)
        try await restarted.prepareToDeliver()
        #expect(try await restarted.counts(notificationID: "n1").queued == devices)
        #expect(try await restarted.notification(appID: "a1", id: "n1")?.audienceSize == devices)
        try await restarted.close()
        let check = try DatabaseQueue(path: path)
        let (distinct, unfinished) = try await check.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT device) FROM deliveries") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notifications WHERE fanout_after IS NOT NULL") ?? 0
            )
        }
        #expect(distinct == devices && unfinished == 0)
        try check.close()
    }
}
