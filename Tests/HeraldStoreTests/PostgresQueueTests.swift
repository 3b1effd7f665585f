import Foundation
import PostgresNIO
import Testing
@testable import HeraldStore

/// The PostgreSQL queue in batches (`delivery_batches`, `herald_claim`): what the shared suite
/// cannot see from outside. Runs when HERALD_TEST_POSTGRES_URL names a database.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["HERALD_TEST_POSTGRES_URL"] != nil))
struct PostgresQueueTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func makeStore(schema: String) -> PostgresStore {
        try! PostgresStore(url: ProcessInfo.processInfo.environment["HERALD_TEST_POSTGRES_URL"]!, schema: schema)
    }

    func devices(_ count: Int) -> [StoredDevice] {
        (0..<count).map { StoredDevice(appID: "a1", token: String(format: "%064x", $0), environment: .development, registeredAt: now) }
    }

    @Test("a schema set up by a newer Herald is refused and left as it is; the layout version is written")
    func newerLayoutIsRefused() async throws {
        let schema = "q_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let store = makeStore(schema: schema)
        defer { Task { try? await store.close() } }
        try await store.migrate()
        #expect(try await store.rows("SELECT version FROM herald_layout").first?.decode(Int.self) == PostgresSchema.layoutVersion)
        // A restart on the same layout runs no statement: none waits for a lock a session holds.
        try await withLockOnDeliveries(store) { try await store.migrate(lockAttempts: 1) }
        // A newer revision of this layout (a later version's statements), and a newer layout
        // this version can work with: left as they are, and the node starts.
        _ = try await store.rows("UPDATE herald_layout SET revision = \(PostgresSchema.revision + 1), fingerprint = 'newer'")
        try await store.migrate()
        #expect(try await store.rows("SELECT fingerprint FROM herald_layout").first?.decode(String.self) == "newer")
        _ = try await store.rows("UPDATE herald_layout SET version = 98, revision = 1, fingerprint = 'newer'")
        try await store.migrate()
        let kept = try await store.rows("SELECT version, fingerprint FROM herald_layout").first?.decode((Int, String).self)
        #expect(kept?.0 == 98 && kept?.1 == "newer")
        // One that needs a newer version: refused, and left as it is.
        _ = try await store.rows("UPDATE herald_layout SET version = 99, oldest_reader = 99")
        await #expect(throws: StoreError.newerLayout(99, known: PostgresSchema.layoutVersion, oldestReader: 99)) { try await store.migrate() }
        #expect(try await store.rows("SELECT version FROM herald_layout").first?.decode(Int.self) == 99)
        // An older revision of this layout is migrated.
        _ = try await store.rows("UPDATE herald_layout SET version = \(PostgresSchema.layoutVersion), oldest_reader = 1, revision = 0, fingerprint = 'older'")
        try await store.migrate()
        #expect(try await store.rows("SELECT fingerprint FROM herald_layout").first?.decode(String.self) == PostgresSchema.fingerprint)
        // So is the current one missing what its statements make (dropped by hand).
        _ = try await store.rows("DROP INDEX delivery_batches_free")
        _ = try await store.rows("DROP FUNCTION herald_claim")
        try await store.migrate()
        #expect(try await store.rows("SELECT to_regclass('delivery_batches_free') IS NOT NULL AND to_regproc('herald_claim') IS NOT NULL").first?.decode(Bool.self) == true)
    }

    /// Runs `body` while another session holds a lock on `deliveries` that index statements wait for.
    func withLockOnDeliveries(_ store: PostgresStore, _ body: () async throws -> Void) async throws {
        let locked = AsyncStream.makeStream(of: Void.self)
        let release = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await store.client.withTransaction(logger: store.logger) { connection in
                try await connection.query("LOCK TABLE deliveries IN ROW EXCLUSIVE MODE", logger: store.logger)
                locked.continuation.yield()
                for await _ in release.stream { break }
            }
        }
        for await _ in locked.stream { break }
        do {
            try await body()
        } catch {
            release.continuation.finish()
            try await holder.value
            throw error
        }
        release.continuation.finish()
        try await holder.value
    }

    @Test("a migration waiting for a lock another session holds gives up after the lock timeout, and goes through once the lock is gone")
    func migrationDoesNotWaitForeverForALock() async throws {
        let schema = "q_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let store = makeStore(schema: schema)
        defer { Task { try? await store.close() } }
        try await store.migrate()
        // Statements changed since (as an upgrade within a layout has it): the migration runs them.
        _ = try await store.rows("UPDATE herald_layout SET revision = 0")
        // Another session writes to deliveries meanwhile: a migration's index statements wait
        // for it, and every writer that comes after would wait behind them.
        try await withLockOnDeliveries(store) {
            let started = ContinuousClock.now
            await #expect {
                try await store.migrate(lockAttempts: 2)
            } throws: { error in
                guard case .migrationLocked(let tries, _, let blockers) = error as? StoreError else { return false }
                return tries == 2 && blockers.contains("pid ")
            }
            #expect(ContinuousClock.now - started < .seconds(13))
        }
        try await store.migrate(lockAttempts: 1)
        #expect(try await store.rows("SELECT fingerprint FROM herald_layout").first?.decode(String.self) == PostgresSchema.fingerprint)
    }

    @Test("a database from before the batch queue: its queued rows, leased or waiting to be retried, are put in batches, due when the old leases end, and delivered once")
    func upgradeFromRowLeases() async throws {
        let schema = "q_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let old = makeStore(schema: schema)
        try await old.migrate()
        _ = try await old.upsertDevices(devices(2_500))
        let notification = StoredNotification(id: "n_old", appID: "a1", message: Data("{}".utf8), audience: Audience(.everyone), createdAt: now)
        _ = try await old.enqueue(notification, idempotentSince: now)
        // The layout before: no version, no batches, leases on the rows, the queue's partial indexes.
        _ = try await old.rows("DROP TABLE herald_layout")
        _ = try await old.rows("DROP TABLE delivery_batches")
        _ = try await old.rows("DROP FUNCTION herald_claim")
        _ = try await old.rows("CREATE INDEX deliveries_ready ON deliveries (id) WHERE state = 'queued' AND lease_until IS NULL AND retry_at IS NULL")
        _ = try await old.rows("ALTER TABLE deliveries RESET (fillfactor)")
        _ = try await old.rows("UPDATE deliveries SET state = 'sent', finished_at = $1 WHERE id % 5 = 0", [.double(now.timeIntervalSince1970)])
        _ = try await old.rows("UPDATE deliveries SET lease_owner = 'old-node', lease_until = $1, attempts = 1 WHERE id % 5 = 1", [.double(now.timeIntervalSince1970 + 600)])
        _ = try await old.rows("UPDATE deliveries SET retry_at = $1, attempts = 1, reason = 'TooManyRequests' WHERE id % 5 = 2", [.double(now.timeIntervalSince1970 + 60)])
        try await old.close()

        let store = makeStore(schema: schema)
        try await store.migrate()
        defer { Task { try? await store.close() } }
        #expect(try await store.queueDepth() == 2_000)
        #expect(try await store.rows("SELECT 1 FROM pg_indexes WHERE indexname = 'deliveries_ready' AND schemaname = $1", [.text(schema)]).isEmpty)
        let options = try await store.rows("SELECT array_to_string(reloptions, ',') FROM pg_class WHERE oid = to_regclass('deliveries')").first?.decode(String?.self)
        #expect(options == "fillfactor=\(PostgresSchema.deliveriesFillFactor)")
        // Nothing is claimed while a lease the old layout gave may still run; then everything
        // queued is claimed once, with the attempts counted so far.
        #expect(try await store.claim(owner: "new-node", limit: 300, lease: 30, now: now.addingTimeInterval(599)).isEmpty)
        var claimed: [ClaimedDelivery] = []
        while true {
            let batch = try await store.claim(owner: "new-node", limit: 300, lease: 30, now: now.addingTimeInterval(601))
            if batch.isEmpty { break }
            claimed += batch
            try await store.record(batch.map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, finishedAt: now) })
        }
        #expect(claimed.count == 2_000)
        #expect(Set(claimed.map(\.id)).count == claimed.count)
        #expect(claimed.filter { $0.attempts == 2 }.count == 1_000 && claimed.filter { $0.attempts == 1 }.count == 1_000)
        #expect(try await store.queueDepth() == 0)
        #expect(try await store.counts(notificationID: "n_old").sent == 2_500)
        #expect(try await store.rows("SELECT 1 FROM delivery_batches").isEmpty)
    }

    @Test("batches from before they counted their rows get their counts from the rows on upgrade; what was leased, retried or new is then delivered once")
    func upgradeFromBatchesWithoutCounts() async throws {
        let schema = "q_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let old = makeStore(schema: schema)
        try await old.migrate()
        _ = try await old.upsertDevices(devices(2_500))
        _ = try await old.enqueue(
            StoredNotification(id: "n_counts", appID: "a1", message: Data("{}".utf8), audience: Audience(.everyone), createdAt: now), idempotentSince: now
        )
        // A node holds 300 rows (100 of them recorded, 50 put back to retry) when it stops.
        let held = try await old.claim(owner: "old-node", limit: 300, lease: 30, now: now)
        try await old.record(held.prefix(100).map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, finishedAt: now) }, by: "old-node")
        try await old.record(held[100..<150].map { .retry(id: $0.id, at: now.addingTimeInterval(10), reason: "TooManyRequests", now: now) }, by: "old-node")
        // The layout before: no version, batches without counts.
        _ = try await old.rows("DROP TABLE herald_layout")
        _ = try await old.rows("ALTER TABLE delivery_batches DROP COLUMN queued, DROP COLUMN retrying, DROP COLUMN queued_at")
        try await old.close()

        let store = makeStore(schema: schema)
        try await store.migrate()
        defer { Task { try? await store.close() } }
        #expect(try await store.queueDepth() == 2_400)
        let counts = try await store.rows("SELECT SUM(queued)::bigint, SUM(retrying)::bigint FROM delivery_batches").first?.decode((Int64, Int64).self)
        #expect(counts?.0 == 2_400 && counts?.1 == 50)
        // Nothing of the stopped node's is taken before its lease ends; then each row once.
        let early = try await store.claim(owner: "new-node", limit: 5_000, lease: 30, now: now.addingTimeInterval(20))
        #expect(early.count == 2_200 && Set(early.map(\.id)).isDisjoint(with: held.map(\.id)))
        var claimed = early
        try await store.record(early.map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, finishedAt: now) }, by: "new-node")
        while true {
            let batch = try await store.claim(owner: "new-node", limit: 500, lease: 30, now: now.addingTimeInterval(40))
            if batch.isEmpty { break }
            claimed += batch
            try await store.record(batch.map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, finishedAt: now) }, by: "new-node")
        }
        #expect(claimed.count == 2_400 && Set(claimed.map(\.id)).count == 2_400)
        #expect(try await store.counts(notificationID: "n_counts").sent == 2_500)
        #expect(try await store.queueDepth() == 0)
        #expect(try await store.rows("SELECT 1 FROM delivery_batches").isEmpty)
    }

    @Test("a batch whose counts say nothing is in flight (written by a node of an older version) is not given back while its rows are")
    func countsAreCheckedAgainstTheRows() async throws {
        let schema = "q_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let store = makeStore(schema: schema)
        try await store.migrate()
        defer { Task { try? await store.close() } }
        _ = try await store.upsertDevices(devices(10))
        _ = try await store.enqueue(
            StoredNotification(id: "n_uncounted", appID: "a1", message: Data("{}".utf8), audience: Audience(.everyone), createdAt: now), idempotentSince: now
        )
        // An older node's fan-out: the batch counts nothing.
        _ = try await store.rows("UPDATE delivery_batches SET queued = 0, retrying = 0")
        let claimed = try await store.claim(owner: "n1", limit: 10, lease: 30, now: now)
        #expect(claimed.count == 10)
        try await store.record([DeliveryOutcome(id: claimed[0].id, state: .sent, status: 200, finishedAt: now)], by: "n1")
        // Nine rows are still in flight: the batch stays n1's, with its counts set from the rows.
        let batch = try await store.rows("SELECT lease_owner, queued::bigint, retrying::bigint FROM delivery_batches").first?.decode((String?, Int64, Int64).self)
        #expect(batch?.0 == "n1" && batch?.1 == 9 && batch?.2 == 0)
        #expect(try await store.claim(owner: "n2", limit: 10, lease: 30, now: now.addingTimeInterval(1)).isEmpty)
        try await store.record(claimed.dropFirst().map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, finishedAt: now) }, by: "n1")
        #expect(try await store.queueDepth() == 0)
        #expect(try await store.rows("SELECT 1 FROM delivery_batches").isEmpty)
    }

    @Test("a fan-out its node left mid-way is finished by another, each device queued once, even by two nodes at once")
    func stalledFanOutsAreFinished() async throws {
        let schema = "q_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let first = makeStore(schema: schema)
        try await first.migrate()
        _ = try await first.upsertDevices(devices(12_500))
        let notification = StoredNotification(id: "n_left", appID: "a1", message: Data("{}".utf8), audience: Audience(.everyone), createdAt: now)
        #expect(try await first.store(notification, idempotentSince: now) == nil)
        // The node queues one chunk of 1,000, then stops.
        guard case .more = try await first.queueChunk(of: "n_left", size: 1_000) else {
            Issue.record("a chunk of 1,000 out of 12,500 should leave more")
            return
        }
        try await first.close()

        let second = makeStore(schema: schema)
        let third = makeStore(schema: schema)
        defer { Task { try? await second.close(); try? await third.close() } }
        // Workers start on what was queued; a fan-out that just moved is not taken up.
        #expect(try await second.queueDepth() == 1_000)
        #expect(try await second.finishStalledFanOuts(stalledFor: 60) == 0)
        // Two nodes take it up at once: their chunks go one after the other.
        async let a = second.finishStalledFanOuts(stalledFor: 0)
        async let b = third.finishStalledFanOuts(stalledFor: 0)
        _ = try await (a, b)
        #expect(try await second.queueDepth() == 12_500)
        let tokens = try await second.rows("SELECT COUNT(*)::bigint, COUNT(DISTINCT token)::bigint FROM deliveries WHERE notification_id = 'n_left'")
            .first?.decode((Int64, Int64).self)
        #expect(tokens?.0 == 12_500 && tokens?.1 == 12_500)
        #expect(try await second.notification(appID: "a1", id: "n_left")?.audienceSize == 12_500)
        #expect(try await second.finishStalledFanOuts(stalledFor: 0) == 0)
        var claimed: Set<Int64> = []
        while true {
            let batch = try await second.claim(owner: "n2", limit: 4_000, lease: 30, now: now)
            if batch.isEmpty { break }
            claimed.formUnion(batch.map(\.id))
            try await second.record(batch.map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, finishedAt: now) }, by: "n2")
        }
        #expect(claimed.count == 12_500)
        #expect(try await second.rows("SELECT 1 FROM delivery_batches").isEmpty)
    }

    @Test("a repeat with the same idempotency key while the audience is queued finishes it and answers with the whole audience; a deleted app's fan-out stops; retention keeps a notification still queuing")
    func repeatsAndDeletedAppsDuringAFanOut() async throws {
        let schema = "q_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let store = makeStore(schema: schema)
        try await store.migrate()
        defer { Task { try? await store.close() } }
        _ = try await store.upsertDevices(devices(7_000))
        let first = StoredNotification(
            id: "n_keyed", appID: "a1", message: Data("{}".utf8), audience: Audience(.everyone), idempotencyKey: "k1", createdAt: now
        )
        _ = try await store.store(first, idempotentSince: now)
        _ = try await store.queueChunk(of: "n_keyed", size: 1_000)
        // While queuing, the notification says so, with what is queued so far.
        let shown = try await store.notification(appID: "a1", id: "n_keyed")
        #expect(shown?.queuing == true && shown?.audienceSize == 1_000)
        let listed = try await store.notifications(appID: "a1", matching: NotificationQuery())
        #expect(listed.map(\.status) == [.sending] && listed.first?.notification.audienceSize == 1_000)
        // Retention leaves it alone, however old.
        _ = try await store.purgeHistory(before: now.addingTimeInterval(86_400 * 365), limit: 1_000)
        #expect(try await store.notification(appID: "a1", id: "n_keyed") != nil)
        var repeated = first
        repeated.id = "n_repeat"
        let outcome = try await store.enqueue(repeated, idempotentSince: now)
        #expect(outcome == .existing(outcome.notification) && outcome.notification.id == "n_keyed")
        #expect(outcome.notification.audienceSize == 7_000 && !outcome.notification.queuing)
        #expect(try await store.queueDepth() == 7_000)

        // An app deleted mid-way: its fan-out queues nothing more.
        _ = try await store.store(StoredNotification(id: "n_gone", appID: "a1", message: Data("{}".utf8), audience: Audience(.everyone), createdAt: now), idempotentSince: now)
        _ = try await store.queueChunk(of: "n_gone", size: 1_000)
        _ = try await store.rows("INSERT INTO deleted_apps (id, deleted_at) VALUES ('a1', $1)", [.double(now.timeIntervalSince1970)])
        #expect(try await store.fanOut("n_gone", chunk: 1_000)?.audienceSize == 1_000)
        #expect(try await store.rows("SELECT 1 FROM deliveries WHERE notification_id = 'n_gone'").count == 1_000)
    }

    @Test("a cancel during a fan-out stops the audience from growing; what was queued is cancelled")
    func cancelStopsAFanOut() async throws {
        let schema = "q_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let store = makeStore(schema: schema)
        try await store.migrate()
        defer { Task { try? await store.close() } }
        _ = try await store.upsertDevices(devices(3_000))
        let notification = StoredNotification(id: "n_cut", appID: "a1", message: Data("{}".utf8), audience: Audience(.everyone), createdAt: now)
        _ = try await store.store(notification, idempotentSince: now)
        _ = try await store.queueChunk(of: "n_cut", size: 1_000)
        #expect(try await store.cancel(appID: "a1", notificationID: "n_cut", now: now)?.cancelledAt == now)
        let finished = try await store.fanOut("n_cut", chunk: 1_000)
        #expect(finished?.audienceSize == 1_000 && finished?.cancelledAt == now)
        #expect(try await store.queueDepth() == 0)
        #expect(try await store.counts(notificationID: "n_cut").cancelled == 1_000)
        #expect(try await store.rows("SELECT 1 FROM deliveries WHERE notification_id = 'n_cut' AND state <> 'cancelled'").isEmpty)
    }

    @Test("recording an outcome rewrites the row in its page (a HOT update: no new index entries), and a finished batch leaves the queue")
    func outcomesAreHeapOnlyUpdates() async throws {
        let schema = "q_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let store = makeStore(schema: schema)
        try await store.migrate()
        defer { Task { try? await store.close() } }
        _ = try await store.upsertDevices(devices(2_000))
        _ = try await store.enqueue(
            StoredNotification(id: "n_0123456789abcdefghijklm", appID: "a1", message: Data("{}".utf8), audience: Audience(.everyone), createdAt: now), idempotentSince: now
        )
        #expect(try await store.rows("SELECT 1 FROM delivery_batches").count == 2)
        let claimed = try await store.claim(owner: "n1", limit: 2_000, lease: 30, now: now)
        #expect(claimed.count == 2_000)
        // The indexes get no entry for the rows' new versions (each would take 2,000 more).
        let indexes = "SELECT SUM(pg_relation_size(indexrelid))::bigint FROM pg_index WHERE indrelid = to_regclass('deliveries')"
        let before = try await store.rows(indexes).first?.decode(Int64.self)
        try await store.record(claimed.map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, apnsID: UUID().uuidString, finishedAt: now) })
        #expect(try await store.rows(indexes).first?.decode(Int64.self) == before)
        #expect(try await store.counts(notificationID: "n_0123456789abcdefghijklm").sent == 2_000)
        #expect(try await store.rows("SELECT 1 FROM delivery_batches").isEmpty)
    }
}

/// The PostgreSQL layout's statements, without a server.
@Suite("PostgreSQL layout")
struct PostgresSchemaTests {
    @Test("the migration statements keep their revision: changing them means raising PostgresSchema.revision")
    func statementsArePinnedToTheirRevision() {
        // Changed a statement? Raise PostgresSchema.revision (and layoutVersion if older code
        // cannot work with the change), then put the new digest here.
        let pinned = [1: "1623cff292bc08b3aabfc480944f100ecdf0312e976780c809f7320ed2fb6225"]
        #expect(pinned[PostgresSchema.revision] == PostgresSchema.fingerprint, "revision \(PostgresSchema.revision) has digest \(PostgresSchema.fingerprint)")
        #expect(PostgresSchema.expectedObjects.contains("delivery_batches") && PostgresSchema.expectedObjects.contains("notifications_fanout"))
    }
}
