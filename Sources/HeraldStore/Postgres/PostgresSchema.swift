import Crypto
import Foundation

/// The PostgreSQL tables: the same as SQLite's, with PostgreSQL's types. Times are seconds since
/// 1970 (double precision).
enum PostgresSchema {
    /// The layout this code writes, kept in `herald_layout` with the oldest layout whose code
    /// can work with it (``oldestReader``): a node older than that refuses to start on the
    /// schema (its claims and outcomes would not keep the newer layout's rules), and a node
    /// older than the layout but not than that starts without running its own statements
    /// (they could undo the newer ones). Version 1 is the layout with per-batch counts and
    /// fan-outs in chunks; schemas from before it have no version.
    static let layoutVersion = 1

    /// The oldest layout whose code works with this one: raised only by a change older code
    /// would break (a rolling upgrade then needs every node stopped first).
    static let oldestReader = 1

    /// The revision of the statements within the layout, raised with any change to them (a
    /// function's body, an index): a node whose schema has this layout and revision runs none
    /// of them at start (they would take locks on tables running nodes use), a node of a lower
    /// revision runs its own, and one of a higher revision leaves the newer ones alone (going
    /// back and forth between versions in a rolling upgrade must not put older bodies back).
    /// A test pins ``fingerprint`` to it, so that changed statements cannot keep a revision.
    static let revision = 1

    /// What the schema must hold for the statements to be taken as run: a node that finds one
    /// of them missing (dropped by hand) runs the statements again.
    static let expectedObjects: [String] = {
        let text = statements.joined(separator: "\n") + afterAddedColumns.joined(separator: "\n")
        let pattern = /CREATE (?:TABLE|INDEX) IF NOT EXISTS (\w+)/
        return text.matches(of: pattern).map { String($0.output.1) }
    }()

    /// A digest of every statement the migration runs (kept in `herald_layout` to say what made
    /// the schema).
    static let fingerprint: String = {
        let text = (statements + afterAddedColumns + addedColumns.map { "\($0.table).\($0.column) \($0.type)" }).joined(separator: "\n")
        return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }()

    /// How long a migration statement waits for a lock a running node holds before giving up
    /// (and trying again, see ``PostgresStore/migrate()``): a statement waiting for a lock makes
    /// every query that comes after it on that table wait too.
    static let migrationLockTimeout = "5s"

    /// Columns added after the first layout, added by ``PostgresStore/migrate()`` only when
    /// missing (an `ALTER TABLE` locks the table even when it changes nothing).
    static let addedColumns: [(table: String, column: String, type: String)] = [
        // When a delivery that failed for a passing reason is due again.
        ("deliveries", "retry_at", "DOUBLE PRECISION"),
        // A device's public key for alerts sealed end to end.
        ("devices", "encryption_key", "TEXT"),
        // When a notification was cancelled.
        ("notifications", "cancelled_at", "DOUBLE PRECISION"),
        // A fan-out under way: the last token queued (`''` before the first chunk, null once the
        // audience is queued), when a chunk last went in (PostgreSQL's clock), and how many rows
        // the chunks queued so far.
        ("notifications", "fanout_after", "TEXT"),
        ("notifications", "fanout_at", "DOUBLE PRECISION"),
        ("notifications", "fanout_queued", "BIGINT NOT NULL DEFAULT 0"),
    ]

    /// Statements on columns of ``addedColumns``, run once they exist.
    static let afterAddedColumns = [
        // The fan-outs under way, for nodes that look for one left unfinished.
        "CREATE INDEX IF NOT EXISTS notifications_fanout ON notifications (fanout_at) WHERE fanout_after IS NOT NULL",
    ]

    /// Devices queued per transaction of a fan-out: workers start on the first chunk while the
    /// rest is queued, and a node that stops mid-way leaves a cursor another node goes on from.
    static let fanOutChunk = 5 * batchRows

    /// Percent of a deliveries page filled by inserts (the rest takes the recorded versions:
    /// at 50 a page of rows recorded in one statement could overflow it).
    static let deliveriesFillFactor = 40

    /// Delivery rows per batch when a notification is queued.
    static let batchRows = 1000

    /// `herald_claim(owner, limit, lease, now)`: claims up to `limit` deliveries in one
    /// statement, server-side (a claim over several round trips would hold its batches' locks
    /// for as long as a broken connection leaves its transaction open). Batches are taken
    /// first when their lease ended, then when due again (rows to retry), then new ones in the
    /// order queued, each skipped while another claim holds it. A batch's rows to retry that
    /// are not due stay in it; a batch with nothing ready is given back until its first retry,
    /// or deleted when nothing in it is queued; one with more ready rows than wanted is cut in
    /// two, the rest a batch of its own (keeping an ended lease, so that it is taken over
    /// next). A row taken loses its retry time: in a leased batch, the queued rows without one
    /// are those its holder has in flight (`queued - retrying`, see `herald_record`). Rows
    /// taken over from a holder whose lease ended count the attempt it may have made; each row
    /// comes with the attempt about to be made counted (recording counts it).
    static let claimFunction = """
        CREATE OR REPLACE FUNCTION herald_claim(p_owner TEXT, p_limit INT, p_lease DOUBLE PRECISION, p_now DOUBLE PRECISION)
        RETURNS TABLE (id BIGINT, notification_id TEXT, app_id TEXT, token TEXT, environment TEXT, locale TEXT, attempts BIGINT, queued_at DOUBLE PRECISION)
        LANGUAGE plpgsql AS $claim$
        #variable_conflict use_column
        DECLARE
            b RECORD;
            wanted INT := p_limit;
            ready BIGINT[];
            taken BIGINT[];
            delayed BIGINT[];
            next_due DOUBLE PRECISION;
            waiting BIGINT;
            rest_queued BIGINT := 0;
            rest_retrying BIGINT := 0;
            cleared BIGINT;
            cut BIGINT;
        BEGIN
            WHILE wanted > 0 LOOP
                SELECT q.id, q.notification_id, q.first_id, q.last_id, q.due_at, TRUE AS expired, q.lease_owner, q.lease_until,
                       q.queued, q.retrying, q.queued_at INTO b
                FROM delivery_batches q WHERE q.lease_until < p_now ORDER BY q.lease_until LIMIT 1 FOR UPDATE SKIP LOCKED;
                IF NOT FOUND THEN
                    SELECT q.id, q.notification_id, q.first_id, q.last_id, q.due_at, FALSE AS expired, q.lease_owner, q.lease_until,
                           q.queued, q.retrying, q.queued_at INTO b
                    FROM delivery_batches q
                    WHERE q.lease_until IS NULL AND q.due_at > 0 AND q.due_at <= p_now ORDER BY q.due_at, q.id LIMIT 1 FOR UPDATE SKIP LOCKED;
                END IF;
                IF NOT FOUND THEN
                    SELECT q.id, q.notification_id, q.first_id, q.last_id, q.due_at, FALSE AS expired, q.lease_owner, q.lease_until,
                           q.queued, q.retrying, q.queued_at INTO b
                    FROM delivery_batches q
                    WHERE q.lease_until IS NULL AND q.due_at = 0 ORDER BY q.due_at, q.id LIMIT 1 FOR UPDATE SKIP LOCKED;
                END IF;
                EXIT WHEN NOT FOUND;
                -- Read along the batch's range (one index scan, no look-up per row); `delayed`
                -- are the ready rows that were put back with a retry time.
                SELECT array_agg(r.id ORDER BY r.id), array_agg(r.id ORDER BY r.id) FILTER (WHERE r.retry_at IS NOT NULL)
                INTO ready, delayed FROM (
                    SELECT d.id, d.retry_at FROM deliveries d
                    WHERE d.notification_id = b.notification_id AND d.id BETWEEN b.first_id AND b.last_id AND d.state = 'queued'
                      AND (d.retry_at IS NULL OR d.retry_at <= p_now)
                    ORDER BY d.id LIMIT wanted + 1) r;
                IF ready IS NULL THEN
                    -- What is queued waits for a retry: its counts are set from the rows.
                    SELECT MIN(d.retry_at), COUNT(*) INTO next_due, waiting FROM deliveries d
                    WHERE d.notification_id = b.notification_id AND d.id BETWEEN b.first_id AND b.last_id AND d.state = 'queued';
                    IF next_due IS NULL THEN
                        DELETE FROM delivery_batches q WHERE q.id = b.id;
                    ELSE
                        UPDATE delivery_batches q SET due_at = next_due, lease_owner = NULL, lease_until = NULL, queued = waiting, retrying = waiting
                        WHERE q.id = b.id;
                    END IF;
                    CONTINUE;
                END IF;
                rest_queued := 0;
                rest_retrying := 0;
                cut := b.last_id;
                IF cardinality(ready) > wanted THEN
                    taken := ready[1:wanted];
                    cut := ready[wanted];
                    SELECT COUNT(*), COUNT(d.retry_at) INTO rest_queued, rest_retrying FROM deliveries d
                    WHERE d.notification_id = b.notification_id AND d.id BETWEEN ready[wanted] + 1 AND b.last_id AND d.state = 'queued';
                    INSERT INTO delivery_batches (notification_id, first_id, last_id, due_at, lease_owner, lease_until, queued, retrying, queued_at)
                    VALUES (b.notification_id, ready[wanted] + 1, b.last_id, b.due_at, b.lease_owner, b.lease_until, rest_queued, rest_retrying, b.queued_at);
                ELSE
                    taken := ready;
                END IF;
                IF b.expired THEN
                    UPDATE deliveries d SET attempts = d.attempts + 1 WHERE d.id = ANY(taken) AND d.retry_at IS NULL;
                END IF;
                cleared := 0;
                IF delayed IS NOT NULL AND delayed[1] <= cut THEN
                    UPDATE deliveries d SET retry_at = NULL WHERE d.id = ANY(delayed) AND d.id <= cut AND d.retry_at IS NOT NULL;
                    GET DIAGNOSTICS cleared = ROW_COUNT;
                END IF;
                UPDATE delivery_batches q SET last_id = cut, lease_owner = p_owner, lease_until = p_now + p_lease,
                    queued = GREATEST(b.queued - rest_queued, 0), retrying = GREATEST(b.retrying - rest_retrying - cleared, 0)
                WHERE q.id = b.id;
                -- The rows taken are those of the range up to the cut that were ready (none of
                -- them waits for a retry any more).
                RETURN QUERY SELECT d.id, d.notification_id, d.app_id, d.token, d.environment, d.locale, d.attempts + 1, d.queued_at
                    FROM deliveries d
                    WHERE d.notification_id = b.notification_id AND d.id BETWEEN b.first_id AND cut AND d.state = 'queued'
                      AND (d.retry_at IS NULL OR d.retry_at <= p_now)
                    ORDER BY d.id;
                wanted := wanted - cardinality(taken);
            END LOOP;
        END
        $claim$
        """

    /// `herald_record(ids, states, statuses, reasons, apns ids, finished, retry at, attempted,
    /// owner)`: writes a list of outcomes in one statement ('' and 0 stand for null).
    ///
    /// The batches holding the rows are locked first, in id order (as every statement that
    /// changes batches does, so that none waits on another in a circle), then again any that a
    /// claim cut off one of them meanwhile, until every batch holding a row is held: no claim
    /// can then cut or take them until the write ends. A delivery to be retried stays queued
    /// with its retry time (one put back without one is due when it was put back); one put back
    /// without an attempt is not counted as one, nor is a retry written again (a row in flight
    /// has no retry time: claims clear it). With an owner, such an outcome is not written for a
    /// row whose batch another owner holds: a late write must not free a row another node
    /// sends. A row no longer queued keeps its outcome (a late write from a node whose lease
    /// ended must not undo what the node that took it over recorded), except that a row
    /// cancelled while in flight takes its final outcome.
    ///
    /// Each batch's counts (`queued`, `retrying`) follow what each written row was and became,
    /// so an outcome written twice, or late, counts once. They only say when to look: a leased
    /// batch whose counts say no row is in flight (`queued <= retrying`) is given back (due at
    /// its first retry, or deleted when nothing in it is queued) only if its rows agree; if
    /// they do not (a node of an older version wrote without counting), the counts are set
    /// from the rows and the batch stays with its holder.
    static let recordFunction = """
        CREATE OR REPLACE FUNCTION herald_record(
            p_ids BIGINT[], p_states TEXT[], p_statuses BIGINT[], p_reasons TEXT[], p_apns_ids TEXT[], p_finished DOUBLE PRECISION[],
            p_retry DOUBLE PRECISION[], p_attempted BIGINT[], p_owner TEXT)
        RETURNS VOID LANGUAGE plpgsql AS $record$
        DECLARE
            held BIGINT[] := '{}';
            more BIGINT[];
            b RECORD;
            next_due DOUBLE PRECISION;
            in_flight BIGINT;
            still_queued BIGINT;
        BEGIN
            -- The batches holding at least one of the rows, looked for from the batch holding
            -- each notification's lowest row (no look-up per row). Read again after locking:
            -- a claim that committed meanwhile may have cut a remainder off one of them.
            LOOP
                SELECT array_agg(l.id) INTO more FROM (
                    SELECT q.id FROM delivery_batches q WHERE q.id IN (
                        SELECT q2.id FROM (
                            SELECT d.notification_id, MIN(d.id) AS low, MAX(d.id) AS high FROM deliveries d WHERE d.id = ANY(p_ids)
                            GROUP BY d.notification_id) r
                        JOIN delivery_batches q2 ON q2.notification_id = r.notification_id AND q2.first_id <= r.high AND q2.last_id >= r.low
                          AND q2.first_id >= COALESCE((
                              SELECT q3.first_id FROM delivery_batches q3 WHERE q3.notification_id = r.notification_id AND q3.first_id <= r.low
                              ORDER BY q3.first_id DESC LIMIT 1), 0)
                        WHERE NOT (q2.id = ANY(held)) AND EXISTS (SELECT 1 FROM unnest(p_ids) AS i(id) WHERE i.id BETWEEN q2.first_id AND q2.last_id))
                    ORDER BY q.id FOR UPDATE) l;
                EXIT WHEN more IS NULL;
                held := held || more;
            END LOOP;
            WITH before AS (
                SELECT d.id, d.state AS was, d.retry_at IS NOT NULL AS waited FROM deliveries d WHERE d.id = ANY(p_ids)),
            written AS (
                UPDATE deliveries AS d SET state = v.state, status = NULLIF(v.status, 0), reason = NULLIF(v.reason, ''),
                    apns_id = NULLIF(v.apns_id, ''), finished_at = CASE WHEN v.state = 'queued' THEN NULL ELSE v.finished_at END,
                    retry_at = CASE WHEN v.state = 'queued' THEN COALESCE(NULLIF(v.retry_at, 0), v.finished_at) END,
                    attempts = d.attempts + CASE WHEN d.state = 'queued' AND d.retry_at IS NOT NULL THEN 0 ELSE v.attempted END
                FROM unnest(p_ids, p_states, p_statuses, p_reasons, p_apns_ids, p_finished, p_retry, p_attempted)
                    AS v(id, state, status, reason, apns_id, finished_at, retry_at, attempted), before
                WHERE d.id = v.id AND before.id = d.id AND (d.state = 'queued' OR (d.state = 'cancelled' AND v.state <> 'queued'))
                  AND (v.state <> 'queued' OR p_owner IS NULL OR NOT EXISTS (
                      SELECT 1 FROM (
                          SELECT q.last_id, q.lease_until, q.lease_owner FROM delivery_batches q
                          WHERE q.notification_id = d.notification_id AND q.first_id <= d.id ORDER BY q.first_id DESC LIMIT 1) q
                      WHERE d.id <= q.last_id AND q.lease_until IS NOT NULL AND q.lease_owner <> p_owner))
                RETURNING d.id, d.notification_id, before.was, before.waited, v.state AS became),
            -- Every batch holding a written row is held: the rows are matched to them by range.
            holding AS MATERIALIZED (
                SELECT q.id, q.notification_id, q.first_id, q.last_id FROM delivery_batches q WHERE q.id = ANY(held)),
            changes AS (
                SELECT c.id,
                       SUM(CASE WHEN w.was = 'queued' AND w.became <> 'queued' THEN 1 ELSE 0 END) AS left_queue,
                       SUM(CASE WHEN w.became = 'queued' THEN 1 ELSE 0 END - CASE WHEN w.was = 'queued' AND w.waited THEN 1 ELSE 0 END) AS more_waiting
                FROM written w JOIN holding c ON c.notification_id = w.notification_id AND w.id BETWEEN c.first_id AND c.last_id
                GROUP BY c.id)
            UPDATE delivery_batches q SET queued = GREATEST(q.queued - changes.left_queue, 0), retrying = GREATEST(q.retrying + changes.more_waiting, 0)
            FROM changes WHERE q.id = changes.id;
            FOR b IN SELECT q.id, q.notification_id, q.first_id, q.last_id FROM delivery_batches q
                     WHERE q.id = ANY(held) AND q.lease_until IS NOT NULL AND q.queued <= q.retrying ORDER BY q.id LOOP
                SELECT COUNT(*) FILTER (WHERE d.retry_at IS NULL), COUNT(*), MIN(d.retry_at) INTO in_flight, still_queued, next_due FROM deliveries d
                WHERE d.notification_id = b.notification_id AND d.id BETWEEN b.first_id AND b.last_id AND d.state = 'queued';
                IF in_flight > 0 THEN
                    UPDATE delivery_batches q SET queued = still_queued, retrying = still_queued - in_flight WHERE q.id = b.id;
                ELSIF still_queued = 0 THEN
                    DELETE FROM delivery_batches q WHERE q.id = b.id;
                ELSE
                    UPDATE delivery_batches q SET due_at = next_due, lease_owner = NULL, lease_until = NULL, queued = still_queued, retrying = still_queued
                    WHERE q.id = b.id;
                END IF;
            END LOOP;
        END
        $record$
        """

    static let statements = [
        "CREATE TABLE IF NOT EXISTS apps (id TEXT PRIMARY KEY, body TEXT NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS herald_layout (
            id INT PRIMARY KEY CHECK (id = 1), version INT NOT NULL, oldest_reader INT NOT NULL, revision INT NOT NULL, fingerprint TEXT NOT NULL)
        """,
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
        // Inserts fill 40% of a page, so that recording outcomes (no indexed column changes)
        // puts each row's new, larger version in its own page without new index entries (a
        // HOT update), even for a whole page recorded in one statement.
        """
        CREATE TABLE IF NOT EXISTS deliveries (
            id BIGSERIAL PRIMARY KEY, notification_id TEXT NOT NULL, app_id TEXT NOT NULL, token TEXT NOT NULL,
            environment TEXT NOT NULL, locale TEXT, state TEXT NOT NULL, lease_owner TEXT, lease_until DOUBLE PRECISION,
            attempts BIGINT NOT NULL DEFAULT 0, status BIGINT, reason TEXT, apns_id TEXT,
            queued_at DOUBLE PRECISION NOT NULL, finished_at DOUBLE PRECISION, retry_at DOUBLE PRECISION) WITH (fillfactor = \(deliveriesFillFactor))
        """,
        // The queue is a small table of batches: ranges of one notification's delivery ids,
        // each claimed and leased as a whole (see PostgresStore's claim). A delivery row is
        // written twice, queued and then recorded, and its indexes only once: per-row leases
        // moved each row between partial indexes on every claim (three row versions, each in
        // every index). The layout before had them (deliveries_ready, _due, _leased). A batch's
        // `due_at` is 0 until it is given back with rows to retry, then their first retry time;
        // it counts its queued rows and those of them waiting for a retry, and keeps when its
        // notification was queued (queue depth and age without reading the rows).
        "DROP INDEX IF EXISTS deliveries_queued",
        "DROP INDEX IF EXISTS deliveries_ready",
        "DROP INDEX IF EXISTS deliveries_due",
        "DROP INDEX IF EXISTS deliveries_leased",
        """
        CREATE TABLE IF NOT EXISTS delivery_batches (
            id BIGSERIAL PRIMARY KEY, notification_id TEXT NOT NULL, first_id BIGINT NOT NULL, last_id BIGINT NOT NULL,
            due_at DOUBLE PRECISION NOT NULL, lease_owner TEXT, lease_until DOUBLE PRECISION,
            queued BIGINT NOT NULL DEFAULT 0, retrying BIGINT NOT NULL DEFAULT 0, queued_at DOUBLE PRECISION NOT NULL DEFAULT 0)
        """,
        "CREATE INDEX IF NOT EXISTS delivery_batches_range ON delivery_batches (notification_id, first_id)",
        // Claims read these in order: batches whose lease may have ended, and those free.
        "CREATE INDEX IF NOT EXISTS delivery_batches_leased ON delivery_batches (lease_until) WHERE lease_until IS NOT NULL",
        "CREATE INDEX IF NOT EXISTS delivery_batches_free ON delivery_batches (due_at, id) WHERE lease_until IS NULL",
        claimFunction,
        recordFunction,
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
