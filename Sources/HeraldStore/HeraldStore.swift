import Foundation

/// Everything the App Server keeps: apps, API keys, devices, notifications, the delivery queue
/// and schedules. ``SQLiteStore`` (one file, the default) and ``PostgresStore`` (several server
/// processes on one database) implement it and pass the same test suite.
///
/// Every method is one transaction, except ``enqueue(_:idempotentSince:)`` on SQLite, which
/// queues a large audience in chunks. Methods that take an `appID` never see another app's rows.
public protocol HeraldStore: Sendable {
    /// Creates the tables and indexes that do not exist yet, and brings a file or schema written
    /// by an earlier Herald up to date (keeping its rows).
    func migrate() async throws
    /// Answers when the store can be reached (one trivial query).
    func ping() async throws
    /// Closes connections; the store is not used afterwards.
    func close() async throws

    // MARK: Apps and keys

    func insertApp(_ app: StoredApp) async throws
    func updateApp(_ app: StoredApp) async throws
    func app(id: String) async throws -> StoredApp?
    func apps() async throws -> [StoredApp]
    /// Deletes an app, its keys, schedules and webhook events at once (a short transaction
    /// whatever the app's size), so nothing more is accepted or sent for it; its devices,
    /// notifications and deliveries are left for ``purgeDeletedApps(limit:)``. False when
    /// there was no such app.
    func deleteApp(id: String) async throws -> Bool
    /// Deletes at most `limit` rows (deliveries, then notifications, tags and devices) of apps
    /// that were deleted. Returns the rows deleted; 0 once nothing is left.
    func purgeDeletedApps(limit: Int) async throws -> Int
    func insertKey(_ key: StoredAPIKey) async throws
    /// The key whose secret hashes to `secretHash`.
    func key(secretHash: String) async throws -> StoredAPIKey?
    /// Keys of an app (`nil`: admin keys).
    func keys(appID: String?) async throws -> [StoredAPIKey]
    /// Revokes a key; false when the app has no such key.
    func deleteKey(id: String, appID: String?) async throws -> Bool
    /// Keeps a console session, and ends the same key's oldest ones beyond the newest `limit`
    /// (this one counted); returns how many ended.
    @discardableResult
    func insertSession(_ session: ConsoleSession, keepingAtMost limit: Int) async throws -> Int
    /// The session whose secret hashes to `secretHash`, with the key it signed in with, if it
    /// has not ended at `now` and the key still exists.
    func session(secretHash: String, now: Date) async throws -> (session: ConsoleSession, key: StoredAPIKey)?
    /// Ends a session (signing out).
    func deleteSession(secretHash: String) async throws
    /// Deletes sessions ended at `now` or whose key was revoked; returns how many.
    func purgeSessions(now: Date) async throws -> Int

    // MARK: Devices

    /// Registers tokens or updates them (idempotent), all in one transaction: an import, or a
    /// benchmark's audience. A registration reactivates a token that was unregistered or
    /// flagged. Returns the devices as stored.
    func upsertDevices(_ devices: [StoredDevice]) async throws -> [StoredDevice]
    func device(appID: String, token: String) async throws -> StoredDevice?
    func devices(appID: String, userID: String) async throws -> [StoredDevice]
    /// A page of an app's registered devices that match `query`, in token order.
    func devices(appID: String, matching query: DeviceQuery) async throws -> [StoredDevice]
    /// The encryption keys of those of `tokens` that registered one (token → base64 key), for
    /// sealing a notification's alert per device when it is sent.
    func encryptionKeys(appID: String, tokens: [String]) async throws -> [String: String]
    /// Removes a registration; false when there was none.
    func deleteDevice(appID: String, token: String) async throws -> Bool
    /// Applies APNs' verdict on a token. A 410 does not win over a registration made after its
    /// timestamp. Returns true when the device changed state.
    func applyFeedback(_ feedback: TokenFeedback) async throws -> Bool
    /// The distinct time zones of an audience's devices (`""` for devices without one).
    func timeZones(appID: String, audience: Audience) async throws -> [String]

    // MARK: Notifications and the queue

    /// Readies this process to claim deliveries; the App Server calls it before its workers
    /// start. A ``SQLiteStore`` keeps leases in memory and locks its file here, so a second
    /// process on the same file fails with ``StoreError/deliveryLockHeld(_:)`` instead of sending
    /// the same rows.
    func prepareToDeliver() async throws
    /// Stores a notification and queues one delivery per device of its audience, without
    /// loading the audience into memory, in chunks that workers start on at once; a fan-out cut
    /// short is finished by ``prepareToDeliver()`` (SQLite) or by another node
    /// (``finishStalledFanOuts(stalledFor:)``, PostgreSQL). It
    /// returns when every delivery is queued. With an idempotency key used
    /// by the same app since `idempotentSince`, nothing is stored and the earlier one is returned.
    func enqueue(_ notification: StoredNotification, idempotentSince: Date) async throws -> EnqueueOutcome
    /// Finishes fan-outs that made no progress for `stalledFor` seconds, left by a node that
    /// stopped mid-way while others run (PostgreSQL); returns how many it took up. A store
    /// served by one process finishes them in ``prepareToDeliver()`` instead (SQLite).
    func finishStalledFanOuts(stalledFor: TimeInterval) async throws -> Int
    func notification(appID: String, id: String) async throws -> StoredNotification?
    /// A page of an app's notifications that match `query`, newest first, each with its status.
    func notifications(appID: String, matching query: NotificationQuery) async throws -> [NotificationEntry]
    /// Cancels a notification still going out: its queued deliveries become
    /// ``DeliveryState/cancelled`` (a queued audience stops growing), those in flight keep the
    /// outcome APNs gives them, and what was sent stays recorded. Returns the notification as
    /// it is now, or nil when the app has no such notification; cancelling twice changes
    /// nothing.
    func cancel(appID: String, notificationID: String, now: Date) async throws -> StoredNotification?
    /// The encoded message of a notification, for workers (any app).
    func message(notificationID: String) async throws -> Data?
    /// Takes up to `limit` queued deliveries that nobody holds (or whose lease ended before
    /// `now`), leasing them to `owner` until `now + lease`. Each is handed to one caller at a time.
    func claim(owner: String, limit: Int, lease: TimeInterval, now: Date) async throws -> [ClaimedDelivery]
    /// Records what became of claimed deliveries: finished ones leave the queue; ones with a
    /// `retryAt` stay queued and are not claimed before it. With `owner`, an outcome that
    /// would leave a row queued is not written while another owner holds the row (a late
    /// write from a node whose lease ended must not make a row claimable that another sends).
    func record(_ outcomes: [DeliveryOutcome], by owner: String?) async throws
    /// Extends `owner`'s leases on the rows `ids` (those it is still working on) to `until`: a
    /// live node's heartbeat, so that short leases end soon after a node dies, never while it
    /// works, and still end for rows it dropped.
    func renewLeases(owner: String, ids: [Int64], until: Date) async throws
    /// The queue at a glance, for readiness: deliveries queued, those waiting for a retry, and
    /// when the oldest was queued.
    func queueSummary(now: Date) async throws -> QueueSummary
    /// Writes `node`'s health-check time: fails when the store cannot write (a full disk).
    func checkWrite(node: String, now: Date) async throws
    /// Gives back the leases `owner` still holds (graceful shutdown).
    func releaseLeases(owner: String) async throws
    /// Deliveries still queued, leased or not.
    func queueDepth() async throws -> Int
    func counts(notificationID: String) async throws -> DeliveryCounts
    /// A page of a notification's deliveries, oldest first: those after the row `after`,
    /// in `state` when given.
    func deliveries(notificationID: String, after: Int64?, state: DeliveryState?, limit: Int) async throws -> [DeliveryRecord]
    /// A page of a device's deliveries, newest first: those before the row `before`.
    func deliveries(appID: String, token: String, before: Int64?, limit: Int) async throws -> [DeliveryRecord]

    // MARK: Retention

    /// Deletes at most `limit` finished deliveries queued before `cutoff`, oldest first, then
    /// notifications created before it that have no delivery left. Returns the rows deleted;
    /// fewer than `limit` deliveries means nothing older is left. Queued deliveries are never
    /// deleted.
    func purgeHistory(before cutoff: Date, limit: Int) async throws -> Int
    /// Keeps each device's `keep` most recent finished deliveries and deletes older ones (at
    /// most `limit` rows), for at most `devices` devices after `cursor` (nil: from the first).
    /// Returns where the next call goes on (the same place while rows are left there; nil once
    /// every device is done) and the rows deleted.
    func capDeviceHistory(keep: Int, after cursor: String?, devices: Int, limit: Int) async throws -> (next: String?, deleted: Int)
    /// Of `ids`, the notifications that are neither cancelled nor deleted, of apps not
    /// deleted: workers skip the rest of the others' deliveries.
    func liveNotifications(_ ids: [String]) async throws -> Set<String>
    /// Revokes an admin key unless it is the last one, in one step (two revocations at once
    /// cannot remove the last two).
    func deleteAdminKey(id: String) async throws -> AdminKeyDeletion

    /// Reserves `count` sends of `appID` under its limit of `perSecond` (a ``TokenBucket``)
    /// and returns how long to wait before sending them. On PostgreSQL the bucket is shared by
    /// every node, so the limit holds for their sum; on SQLite it is the process's.
    func reserveSends(appID: String, count: Int, perSecond: Int, now: Date) async throws -> TimeInterval

    // MARK: Webhook outbox

    /// Keeps an event for the app's webhook until it is delivered or given up.
    func enqueueWebhookEvent(appID: String, body: String, now: Date) async throws
    /// Due events that nobody holds, leased to `owner` (one node sends each), attempts counted.
    func claimWebhookEvents(owner: String, now: Date, lease: TimeInterval, limit: Int) async throws -> [WebhookEvent]
    /// The receiver took the event, or it is given up: it leaves the outbox.
    func finishWebhookEvent(id: Int64) async throws
    /// The receiver did not take it: it is due again at `at`.
    func retryWebhookEvent(id: Int64, at: Date, error: String) async throws

    // MARK: Schedules

    /// Stores a schedule, replacing the app's schedule with the same id.
    func upsertSchedule(_ schedule: StoredSchedule) async throws
    func schedules(appID: String) async throws -> [StoredSchedule]
    func schedule(appID: String, id: String) async throws -> StoredSchedule?
    func deleteSchedule(appID: String, id: String) async throws -> Bool
    /// Schedules due at `now`, leased to `owner` for `lease` so one node fires each.
    func claimDueSchedules(owner: String, now: Date, lease: TimeInterval, limit: Int) async throws -> [StoredSchedule]
    /// Saves a fired schedule's progress (or deletes it when `finished`) and ends its lease,
    /// if `owner` still holds it: a node whose lease ended (another took the schedule over) or
    /// whose schedule was replaced meanwhile changes nothing.
    func finishFiring(_ schedule: StoredSchedule, finished: Bool, owner: String) async throws
}

extension HeraldStore {
    /// Writes every app again, so its secrets are sealed with the store's current key (plain
    /// ones written before encryption was on, or ones sealed with a previous key).
    public func resealSecrets() async throws {
        for app in try await apps() { try await updateApp(app) }
    }

    /// Nothing to ready: leases are kept in the database.
    public func prepareToDeliver() async throws {}

    /// Nothing to finish: fan-outs cut short are finished when the store is readied.
    public func finishStalledFanOuts(stalledFor: TimeInterval) async throws -> Int { 0 }

    /// A notification's first deliveries, oldest first.
    public func deliveries(notificationID: String, limit: Int) async throws -> [DeliveryRecord] {
        try await deliveries(notificationID: notificationID, after: nil, state: nil, limit: limit)
    }

    /// A device's most recent deliveries, newest first.
    public func deliveries(appID: String, token: String, limit: Int) async throws -> [DeliveryRecord] {
        try await deliveries(appID: appID, token: token, before: nil, limit: limit)
    }

    /// Registers a token or updates it (idempotent). A registration reactivates a token that was
    /// unregistered or flagged. Returns the device as stored.
    public func upsertDevice(_ device: StoredDevice) async throws -> StoredDevice {
        try await upsertDevices([device])[0]
    }
}

extension HeraldStore {
    /// Records outcomes whoever holds their rows (``record(_:by:)`` without an owner).
    public func record(_ outcomes: [DeliveryOutcome]) async throws {
        try await record(outcomes, by: nil)
    }
}
