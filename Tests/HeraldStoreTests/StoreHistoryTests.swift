import Foundation
import HeraldCore
import HeraldStore
import Testing

/// Every backend: lists a page at a time, cancelling, deleting an app, and retention.
@Suite("Store lists, cancelling and retention")
struct StoreHistoryTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func device(_ app: String, _ token: String, user: String? = nil, tags: [String] = [], kind: DeviceKind = .alert, environment: APNsEnvironment = .development)
        -> StoredDevice
    {
        StoredDevice(appID: app, token: token, environment: environment, kind: kind, userID: user, tags: tags, registeredAt: now)
    }

    func notification(_ app: String, _ audience: Audience = Audience(.everyone), at date: Date) -> StoredNotification {
        StoredNotification(id: UUID().uuidString.lowercased(), appID: app, message: Data("{}".utf8), audience: audience, createdAt: date)
    }

    @Test("devices: filters by tag, user, kind, environment and state, a page at a time in token order", arguments: StoreBackend.available)
    func devicePages(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            var devices: [StoredDevice] = []
            for index in 0..<25 {
                devices.append(device(
                    "a1", String(format: "aa%02d", index), user: index % 5 == 0 ? "u1" : nil, tags: index % 2 == 0 ? ["even"] : ["odd", "news"],
                    kind: index == 3 ? .voip : .alert, environment: index < 20 ? .development : .production
                ))
            }
            _ = try await store.upsertDevices(devices + [device("a2", "aa00", tags: ["even"])])
            _ = try await store.applyFeedback(TokenFeedback(appID: "a1", token: "aa07", state: .unregistered, reason: "Unregistered", timestamp: now.addingTimeInterval(1)))
            _ = try await store.deleteDevice(appID: "a1", token: "aa09")

            var pages: [[String]] = []
            var after: String?
            repeat {
                let page = try await store.devices(appID: "a1", matching: DeviceQuery(after: after, limit: 10)).map(\.token)
                pages.append(page)
                after = page.count == 10 ? page.last : nil
            } while after != nil
            #expect(pages.map(\.count) == [10, 10, 4])
            #expect(!pages.joined().contains("aa09"))
            #expect(Array(pages.joined()) == Array(pages.joined()).sorted())

            func tokens(_ query: DeviceQuery) async throws -> [String] { try await store.devices(appID: "a1", matching: query).map(\.token) }
            #expect(try await tokens(DeviceQuery(tag: "even")) == stride(from: 0, to: 25, by: 2).map { String(format: "aa%02d", $0) })
            #expect(try await tokens(DeviceQuery(userID: "u1")) == ["aa00", "aa05", "aa10", "aa15", "aa20"])
            #expect(try await tokens(DeviceQuery(kind: .voip)) == ["aa03"])
            #expect(try await tokens(DeviceQuery(environment: .production)) == ["aa20", "aa21", "aa22", "aa23", "aa24"])
            #expect(try await tokens(DeviceQuery(state: .unregistered)) == ["aa07"])
            #expect(try await tokens(DeviceQuery(tokens: ["aa01", "aa09", "ffff"])) == ["aa01"])
            #expect(try await tokens(DeviceQuery(tokens: [])) == [])
            #expect(try await tokens(DeviceQuery(tag: "news", environment: .production, after: "aa21")) == ["aa23"])
        }
    }

    @Test("notifications: newest first, a page at a time, by time range and status", arguments: StoreBackend.available)
    func notificationPages(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            _ = try await store.upsertDevices([device("a1", "aa01"), device("a1", "aa02")])
            var ids: [String] = []
            for index in 0..<7 {
                ids.append(try await store.enqueue(notification("a1", at: now.addingTimeInterval(Double(index))), idempotentSince: now).notification.id)
            }
            _ = try await store.enqueue(notification("a2", at: now), idempotentSince: now)
            // The first five are finished; the sixth is cancelled; the last is still sending.
            let claimed = try await store.claim(owner: "n1", limit: 10, lease: 30, now: now)
            let finishedIDs = Set(ids.prefix(5))
            try await store.record(claimed.filter { finishedIDs.contains($0.notificationID) }.map {
                DeliveryOutcome(id: $0.id, state: .sent, status: 200, finishedAt: now)
            })
            try await store.releaseLeases(owner: "n1")
            #expect(try await store.cancel(appID: "a1", notificationID: ids[5], now: now)?.cancelledAt == now)

            var seen: [String] = []
            var after: NotificationQuery.Position?
            repeat {
                let page = try await store.notifications(appID: "a1", matching: NotificationQuery(after: after, limit: 3))
                seen += page.map(\.notification.id)
                after = page.count == 3 ? page.last.map { .init(createdAt: $0.notification.createdAt, id: $0.notification.id) } : nil
            } while after != nil
            #expect(seen == Array(ids.reversed()))

            func listed(_ query: NotificationQuery) async throws -> [String] {
                try await store.notifications(appID: "a1", matching: query).map(\.notification.id)
            }
            #expect(try await listed(NotificationQuery(status: .sending)) == [ids[6]])
            #expect(try await listed(NotificationQuery(status: .cancelled)) == [ids[5]])
            #expect(try await listed(NotificationQuery(status: .finished)) == Array(ids.prefix(5).reversed()))
            #expect(try await listed(NotificationQuery(since: now.addingTimeInterval(2), until: now.addingTimeInterval(4))) == [ids[3], ids[2]])
            let entries = try await store.notifications(appID: "a1", matching: NotificationQuery(limit: 2))
            #expect(entries.map(\.status) == [.sending, .cancelled])
            #expect(entries[1].notification.cancelledAt == now)
        }
    }

    @Test("cancel: queued rows become cancelled; one in flight keeps the send APNs took; a retry leaves it cancelled", arguments: StoreBackend.available)
    func cancelling(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            _ = try await store.upsertDevices((0..<6).map { device("a1", String(format: "aa%02d", $0)) })
            let sent = try await store.enqueue(notification("a1", at: now), idempotentSince: now).notification
            let claimed = try await store.claim(owner: "n1", limit: 3, lease: 30, now: now)
            try await store.record([DeliveryOutcome(id: claimed[0].id, state: .sent, status: 200, finishedAt: now)])

            #expect(try await store.cancel(appID: "a2", notificationID: sent.id, now: now) == nil)
            let cancelled = try #require(try await store.cancel(appID: "a1", notificationID: sent.id, now: now.addingTimeInterval(1)))
            #expect(cancelled.cancelledAt == now.addingTimeInterval(1))
            // Twice changes nothing.
            #expect(try await store.cancel(appID: "a1", notificationID: sent.id, now: now.addingTimeInterval(9))?.cancelledAt == now.addingTimeInterval(1))
            #expect(try await store.notification(appID: "a1", id: sent.id)?.cancelledAt == now.addingTimeInterval(1))

            // In flight when cancelled: one goes through, one is put back for a retry.
            try await store.record([
                DeliveryOutcome(id: claimed[1].id, state: .sent, status: 200, finishedAt: now.addingTimeInterval(2)),
                .retry(id: claimed[2].id, at: now.addingTimeInterval(3), reason: "TooManyRequests", status: 429, now: now.addingTimeInterval(2)),
            ])
            let counts = try await store.counts(notificationID: sent.id)
            #expect(counts.sent == 2)
            #expect(counts.cancelled == 4)
            #expect(counts.queued == 0)
            #expect(try await store.queueDepth() == 0)
            #expect(try await store.claim(owner: "n2", limit: 10, lease: 30, now: now.addingTimeInterval(60)).isEmpty)
            #expect(try await store.deliveries(notificationID: sent.id, after: nil, state: .cancelled, limit: 10).count == 4)
            let other = try await store.enqueue(notification("a1", at: now), idempotentSince: now).notification
            #expect(try await store.liveNotifications([sent.id, other.id, "gone"]) == [other.id])
        }
    }

    @Test("a notification's deliveries page by row; a device's newest first before a row", arguments: StoreBackend.available)
    func deliveryPages(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            _ = try await store.upsertDevices((0..<2_500).map { device("a1", String(format: "a%05d", $0)) })
            let sent = try await store.enqueue(notification("a1", at: now), idempotentSince: now).notification
            var tokens: [String] = []
            var after: Int64?
            repeat {
                let page = try await store.deliveries(notificationID: sent.id, after: after, state: nil, limit: 1_000)
                tokens += page.map(\.token)
                after = page.count == 1_000 ? page.last?.id : nil
            } while after != nil
            #expect(tokens.count == 2_500)
            #expect(Set(tokens).count == 2_500)
            #expect(try await store.deliveries(notificationID: sent.id, after: nil, state: .sent, limit: 10).isEmpty)

            var ids: [String] = [sent.id]
            for index in 1..<4 {
                ids.append(try await store.enqueue(notification("a1", Audience(.tokens(["a00001"])), at: now.addingTimeInterval(Double(index))), idempotentSince: now).notification.id)
            }
            let newest = try await store.deliveries(appID: "a1", token: "a00001", before: nil, limit: 2)
            #expect(newest.map(\.notificationID) == [ids[3], ids[2]])
            #expect(try await store.deliveries(appID: "a1", token: "a00001", before: newest[1].id, limit: 5).map(\.notificationID) == [ids[1], ids[0]])
        }
    }

    @Test("deleting an app deletes what it owns and nothing of another app's", arguments: StoreBackend.available)
    func appDeletion(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            var sentIDs: [String: String] = [:]
            for id in ["a1", "a2"] {
                try await store.insertApp(StoredApp(id: id, name: id, bundleID: "com.example.\(id)", teamID: nil, createdAt: now))
                try await store.insertKey(StoredAPIKey(id: "k-\(id)", appID: id, secretHash: "h-\(id)", createdAt: now))
                _ = try await store.upsertDevices([device(id, "aa01", tags: ["t"]), device(id, "aa02")])
                sentIDs[id] = try await store.enqueue(notification(id, at: now), idempotentSince: now).notification.id
                try await store.upsertSchedule(
                    StoredSchedule(id: "s1", appID: id, trigger: Data("{}".utf8), request: Data("{}".utf8), nextCheckAt: now.addingTimeInterval(60), createdAt: now)
                )
                try await store.enqueueWebhookEvent(appID: id, body: "{}", now: now)
            }
            try await store.insertKey(StoredAPIKey(id: "admin-1", appID: nil, secretHash: "ha1", createdAt: now))
            try await store.insertKey(StoredAPIKey(id: "admin-2", appID: nil, secretHash: "ha2", createdAt: now))
            #expect(try await store.deleteAdminKey(id: "k-a1") == .notFound)
            #expect(try await store.deleteAdminKey(id: "admin-1") == .deleted)
            #expect(try await store.deleteAdminKey(id: "admin-2") == .last)
            #expect(try await store.key(secretHash: "ha2")?.isAdmin == true)
            #expect(try await store.deleteApp(id: "a1"))
            #expect(try await store.deleteApp(id: "a1") == false)
            #expect(try await store.app(id: "a1") == nil)
            #expect(try await store.key(secretHash: "h-a1") == nil)
            #expect(try await store.schedules(appID: "a1").isEmpty)
            // Its notifications are no longer live: workers holding its rows skip them.
            #expect(try await store.liveNotifications([sentIDs["a1"]!, sentIDs["a2"]!]) == [sentIDs["a2"]!])
            // The rest goes in small batches: 2 deliveries, 1 notification, 1 tag, 2 devices.
            var batches: [Int] = []
            while batches.count < 20 {
                let deleted = try await store.purgeDeletedApps(limit: 2)
                if deleted == 0 { break }
                batches.append(deleted)
            }
            #expect(batches.reduce(0, +) == 6)
            #expect(batches.allSatisfy { $0 <= 2 })
            #expect(try await store.purgeDeletedApps(limit: 100) == 0)
            // A registration that was under way when the app was deleted is purged too.
            _ = try await store.upsertDevice(device("a1", "aa09"))
            #expect(try await store.purgeDeletedApps(limit: 100) == 1)
            #expect(try await store.devices(appID: "a1", matching: DeviceQuery()).isEmpty)
            #expect(try await store.notifications(appID: "a1", matching: NotificationQuery()).isEmpty)
            #expect(try await store.schedules(appID: "a1").isEmpty)
            #expect(try await store.queueDepth() == 2)
            let claimed = try await store.claim(owner: "n1", limit: 10, lease: 30, now: now)
            #expect(claimed.map(\.appID) == ["a2", "a2"])
            #expect(try await store.claimWebhookEvents(owner: "n1", now: now, lease: 30, limit: 10).map(\.appID) == ["a2"])
            #expect(try await store.devices(appID: "a2", matching: DeviceQuery(tag: "t")).map(\.token) == ["aa01"])
        }
    }

    @Test("retention: old finished history goes in small batches, queued rows stay; each device keeps its newest", arguments: StoreBackend.available)
    func retention(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            _ = try await store.upsertDevices((0..<30).map { device("a1", String(format: "aa%02d", $0)) })
            var ids: [String] = []
            for index in 0..<4 {
                let sent = try await store.enqueue(notification("a1", at: now.addingTimeInterval(Double(index) * 3_600)), idempotentSince: now).notification
                ids.append(sent.id)
                // All but the third are delivered.
                let claimed = try await store.claim(owner: "n1", limit: 100, lease: 30, now: now)
                if index != 2 {
                    try await store.record(claimed.filter { $0.notificationID == sent.id }.map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, finishedAt: now) })
                }
                try await store.releaseLeases(owner: "n1")
            }
            // Older than 2.5 h: the first three; the third still has queued rows.
            let cutoff = now.addingTimeInterval(2.5 * 3_600)
            var batches: [Int] = []
            while true {
                let deleted = try await store.purgeHistory(before: cutoff, limit: 25)
                if deleted == 0 { break }
                batches.append(deleted)
                #expect(batches.count < 10)
            }
            #expect(batches.allSatisfy { $0 <= 27 })
            #expect(batches.reduce(0, +) == 62)
            #expect(try await store.notification(appID: "a1", id: ids[0]) == nil)
            #expect(try await store.notification(appID: "a1", id: ids[1]) == nil)
            #expect(try await store.counts(notificationID: ids[2]).queued == 30)
            #expect(try await store.counts(notificationID: ids[3]).sent == 30)

            // Two more delivered rounds: each device has 3 finished deliveries and 1 queued.
            for index in 4..<6 {
                _ = try await store.enqueue(notification("a1", Audience(.tokens(["aa00", "aa01"])), at: now.addingTimeInterval(Double(index) * 3_600)), idempotentSince: now)
            }
            let claimed = try await store.claim(owner: "n1", limit: 100, lease: 30, now: now)
            try await store.record(claimed.filter { $0.notificationID != ids[2] }
                .map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, finishedAt: now) })
            try await store.releaseLeases(owner: "n1")
            var cursor: String?
            var deleted = 0
            var pages = 0
            repeat {
                // One row per transaction: the first page is gone over again while it gives a full batch.
                let step = try await store.capDeviceHistory(keep: 1, after: cursor, devices: 7, limit: 1)
                cursor = step.next
                deleted += step.deleted
                pages += 1
            } while cursor != nil && pages < 20
            // aa00 and aa01 had [queued, sent, sent, sent] (oldest first): the two oldest sent go,
            // the queued one stays and is not counted among the newest.
            #expect(deleted == 4)
            #expect(pages == 9)
            let kept = try await store.deliveries(appID: "a1", token: "aa00", before: nil, limit: 10)
            #expect(kept.map(\.state) == [.sent, .queued])
            #expect(try await store.capDeviceHistory(keep: 1, after: nil, devices: 100, limit: 100) == (nil, 0))
        }
    }
}
