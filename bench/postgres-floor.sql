-- What a delivery row costs PostgreSQL at the least, in the layout `herald serve` uses (the
-- deliveries table as PostgresSchema makes it): queuing 100,000 rows in statements of 5,000
-- (without and with the per-device history index), then writing their outcomes in statements of
-- 160 (HOT updates, as herald_record's). No Herald code runs: the figures are the floor under
-- the fan-out and herald_record on this machine (a phase's 20 or 625 statements commit together,
-- where herald serve commits each). Works in a schema of its own, dropped at the end.
--
--   psql "postgres://user@127.0.0.1:5432/db" -q -f bench/postgres-floor.sql
DROP SCHEMA IF EXISTS herald_floor CASCADE;
CREATE SCHEMA herald_floor;
SET search_path = herald_floor;
SET client_min_messages = notice;
CREATE TABLE tokens AS SELECT i AS n, md5(i::text) || md5((i * 7)::text) AS token FROM generate_series(1, 100000) i;
CREATE INDEX ON tokens (n);
CREATE TABLE deliveries (
    id BIGSERIAL PRIMARY KEY, notification_id TEXT NOT NULL, app_id TEXT NOT NULL, token TEXT NOT NULL,
    environment TEXT NOT NULL, locale TEXT, state TEXT NOT NULL, lease_owner TEXT, lease_until DOUBLE PRECISION,
    attempts BIGINT NOT NULL DEFAULT 0, status BIGINT, reason TEXT, apns_id TEXT,
    queued_at DOUBLE PRECISION NOT NULL, finished_at DOUBLE PRECISION, retry_at DOUBLE PRECISION) WITH (fillfactor = 40);
CREATE INDEX deliveries_notification ON deliveries (notification_id, id);

CREATE FUNCTION queue(p_notification TEXT) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
    FOR c IN 0..19 LOOP
        INSERT INTO deliveries (notification_id, app_id, token, environment, locale, state, queued_at)
        SELECT p_notification, 'app-1', token, 'development', NULL, 'queued', 1 FROM tokens WHERE n > c * 5000 AND n <= (c + 1) * 5000;
    END LOOP;
END $$;

CREATE FUNCTION record_outcomes(p_notification TEXT) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE ids BIGINT[];
BEGIN
    SELECT array_agg(id ORDER BY id) INTO ids FROM deliveries WHERE notification_id = p_notification;
    FOR c IN 0..624 LOOP
        UPDATE deliveries d SET state = 'sent', status = 200, apns_id = gen_random_uuid()::text, finished_at = 2, attempts = d.attempts + 1
        FROM unnest(ids[c * 160 + 1:(c + 1) * 160]) AS v(id) WHERE d.id = v.id;
    END LOOP;
END $$;

CREATE FUNCTION timed(p_what TEXT, p_sql TEXT) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE started TIMESTAMPTZ := clock_timestamp();
BEGIN
    EXECUTE p_sql;
    RAISE NOTICE '%: % µs per row', p_what, round(extract(epoch FROM clock_timestamp() - started) * 1e6 / 100000, 2);
END $$;

-- Each phase is a statement, and so a transaction, of its own (psql's autocommit).
\o /dev/null
SELECT timed('queue, no per-device index', $q$SELECT queue('n1')$q$);
SELECT timed('queue again, no per-device index', $q$SELECT queue('n2')$q$);
CREATE INDEX deliveries_device ON deliveries (app_id, token, id);
SELECT timed('queue, with the per-device index', $q$SELECT queue('n3')$q$);
SELECT timed('queue again, with the per-device index', $q$SELECT queue('n4')$q$);
SELECT timed('outcomes', $q$SELECT record_outcomes('n3')$q$);
SELECT timed('outcomes again', $q$SELECT record_outcomes('n4')$q$);
\o
-- PostgreSQL 15 or later (pg_stat_force_next_flush).
SELECT pg_stat_force_next_flush();
SELECT n_tup_upd AS updated, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE schemaname = 'herald_floor' AND relname = 'deliveries';
DROP SCHEMA herald_floor CASCADE;
