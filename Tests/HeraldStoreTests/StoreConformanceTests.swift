import Foundation
import HeraldCore
import HeraldStore
import Testing

/// One suite, every backend: what the server relies on from a store.
@Suite("Store conformance")
struct StoreConformanceTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func app(_ id: String) -> StoredApp {
        StoredApp(id: id, name: "App \(id)", bundleID: "com.example.\(id)", teamID: "TEAM123456", createdAt: now)
    }

    func device(_ app: String, _ token: String, user: String? = nil, tags: [String] = [], kind: DeviceKind = .alert, zone: String? = nil, at date: Date? = nil)
        -> StoredDevice
    {
        StoredDevice(
            appID: app, token: token, environment: .development, kind: kind, userID: user, tags: tags, locale: "en-US", timeZone: zone,
            registeredAt: date ?? now
        )
    }

    func notification(_ app: String, _ audience: Audience, key: String? = nil, at date: Date? = nil) -> StoredNotification {
        StoredNotification(id: UUID().uuidString, appID: app, message: Data("{}".utf8), audience: audience, idempotencyKey: key, createdAt: date ?? now)
    }

    @Test("apps and keys round-trip; keys are found by hash and scoped to their app", arguments: StoreBackend.available)
    func appsAndKeys(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            var first = app("a1")
            first.credentials = [AppCredential(environment: .production, secret: .token(keyID: "ABCDE12345", pem: "PEM"))]
            try await store.insertApp(first)
            try await store.insertApp(app("a2"))
            #expect(try await store.app(id: "a1") == first)
            #expect(try await store.apps().map(\.id) == ["a1", "a2"])
            first.rateLimit = 50
            try await store.updateApp(first)
            #expect(try await store.app(id: "a1")?.rateLimit == 50)
            #expect(try await store.app(id: "nope") == nil)

            try await store.insertKey(StoredAPIKey(id: "k_admin", appID: nil, secretHash: "h0", createdAt: now))
            try await store.insertKey(StoredAPIKey(id: "k1", appID: "a1", secretHash: "h1", createdAt: now))
            try await store.insertKey(StoredAPIKey(id: "k2", appID: "a2", secretHash: "h2", createdAt: now))
            #expect(try await store.key(secretHash: "h1")?.appID == "a1")
            #expect(try await store.key(secretHash: "h0")?.isAdmin == true)
            #expect(try await store.key(secretHash: "zz") == nil)
            #expect(try await store.keys(appID: "a1").map(\.id) == ["k1"])
            #expect(try await store.keys(appID: nil).map(\.id) == ["k_admin"])
            #expect(try await store.deleteKey(id: "k1", appID: "a2") == false)
            #expect(try await store.deleteKey(id: "k1", appID: "a1"))
            #expect(try await store.key(secretHash: "h1") == nil)

            // Console sessions: found with their key until they end, the key is revoked, or
            // they are signed out; ended ones are purged.
            try await store.insertSession(ConsoleSession(secretHash: "s2", keyID: "k2", createdAt: now, expiresAt: now.addingTimeInterval(60)), keepingAtMost: 20)
            try await store.insertSession(ConsoleSession(secretHash: "s0", keyID: "k_admin", createdAt: now, expiresAt: now.addingTimeInterval(60)), keepingAtMost: 20)
            try await store.insertSession(ConsoleSession(secretHash: "old", keyID: "k2", createdAt: now, expiresAt: now.addingTimeInterval(-1)), keepingAtMost: 20)
            let found = try #require(try await store.session(secretHash: "s2", now: now))
            #expect(found.key.appID == "a2" && found.session.keyID == "k2" && found.session.expiresAt == now.addingTimeInterval(60))
            #expect(try await store.session(secretHash: "s2", now: now.addingTimeInterval(61)) == nil)
            #expect(try await store.session(secretHash: "old", now: now) == nil)
            #expect(try await store.session(secretHash: "s0", now: now)?.key.isAdmin == true)
            #expect(try await store.deleteKey(id: "k2", appID: "a2"))
            #expect(try await store.session(secretHash: "s2", now: now) == nil)
            try await store.deleteSession(secretHash: "s0")
            #expect(try await store.session(secretHash: "s0", now: now) == nil)
            #expect(try await store.purgeSessions(now: now) == 2)
            // A key keeps its newest sessions only.
            for index in 0..<5 {
                let ended = try await store.insertSession(
                    ConsoleSession(secretHash: "many\(index)", keyID: "k_admin", createdAt: now.addingTimeInterval(Double(index)), expiresAt: now.addingTimeInterval(60)),
                    keepingAtMost: 3
                )
                #expect(ended == (index < 3 ? 0 : 1))
            }
            #expect(try await store.session(secretHash: "many1", now: now) == nil)
            #expect(try await store.session(secretHash: "many2", now: now) != nil)
            #expect(try await store.session(secretHash: "many4", now: now) != nil)
        }
    }

    @Test("device upsert is idempotent, replaces tags and is scoped by app", arguments: StoreBackend.available)
    func deviceUpsert(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            _ = try await store.upsertDevice(device("a1", "aa01", user: "u1", tags: ["news", "sports"]))
            _ = try await store.upsertDevice(device("a1", "aa01", user: "u1", tags: ["news", "sports"]))
            _ = try await store.upsertDevice(device("a1", "aa02", user: "u1", tags: ["news"]))
            _ = try await store.upsertDevice(device("a2", "aa01", user: "u1"))
            #expect(try await store.devices(appID: "a1", userID: "u1").map(\.token) == ["aa01", "aa02"])
            #expect(try await store.device(appID: "a1", token: "aa01")?.tags == ["news", "sports"])

            _ = try await store.upsertDevice(device("a1", "aa01", user: "u2", tags: ["weather"]))
            #expect(try await store.device(appID: "a1", token: "aa01")?.userID == "u2")
            let sportsFans = try await store.enqueue(notification("a1", Audience(.tags(["sports"], match: .any))), idempotentSince: now)
            #expect(sportsFans.notification.audienceSize == 0)

            // Encryption keys: kept with the device, replaced or cleared by a new registration, per app.
            var keyed = device("a1", "aa01", user: "u2", tags: ["weather"])
            keyed.encryptionKey = "key-1"
            _ = try await store.upsertDevice(keyed)
            _ = try await store.upsertDevice({ var other = device("a2", "aa01"); other.encryptionKey = "key-2"; return other }())
            #expect(try await store.device(appID: "a1", token: "aa01")?.encryptionKey == "key-1")
            #expect(try await store.encryptionKeys(appID: "a1", tokens: ["aa01", "aa02", "ffff"]) == ["aa01": "key-1"])
            #expect(try await store.encryptionKeys(appID: "a1", tokens: []) == [:])
            _ = try await store.upsertDevice(device("a1", "aa01", user: "u2", tags: ["weather"]))
            #expect(try await store.encryptionKeys(appID: "a1", tokens: ["aa01"]) == [:])

            #expect(try await store.deleteDevice(appID: "a2", token: "aa02") == false)
            #expect(try await store.deleteDevice(appID: "a1", token: "aa02"))
            #expect(try await store.device(appID: "a1", token: "aa02") == nil)
            #expect(try await store.device(appID: "a2", token: "aa01") != nil)
        }
    }

    @Test("a 410 deactivates unless the token was registered after its timestamp; flags always apply", arguments: StoreBackend.available)
    func feedback(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            _ = try await store.upsertDevice(device("a1", "aa01", at: now))
            let stale = TokenFeedback(appID: "a1", token: "aa01", state: .unregistered, reason: "Unregistered", timestamp: now.addingTimeInterval(-60))
            #expect(try await store.applyFeedback(stale) == false)
            #expect(try await store.device(appID: "a1", token: "aa01")?.state == .active)

            let fresh = TokenFeedback(appID: "a1", token: "aa01", state: .unregistered, reason: "Unregistered", timestamp: now.addingTimeInterval(60))
            #expect(try await store.applyFeedback(fresh))
            let gone = try #require(try await store.device(appID: "a1", token: "aa01"))
            #expect(gone.state == .unregistered)
            #expect(gone.stateReason == "Unregistered")

            // Registering again reactivates it.
            _ = try await store.upsertDevice(device("a1", "aa01", at: now.addingTimeInterval(120)))
            #expect(try await store.device(appID: "a1", token: "aa01")?.state == .active)

            let bad = TokenFeedback(appID: "a1", token: "aa01", state: .invalid, reason: "BadDeviceToken", timestamp: now)
            #expect(try await store.applyFeedback(bad))
            #expect(try await store.device(appID: "a1", token: "aa01")?.state == .invalid)
            let other = TokenFeedback(appID: "a2", token: "aa01", state: .invalid, reason: "BadDeviceToken", timestamp: now)
            #expect(try await store.applyFeedback(other) == false)
        }
    }

    @Test("audiences: tokens, users, tags any/all, everyone, kind, time zone; inactive and other apps' devices never", arguments: StoreBackend.available)
    func audiences(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            _ = try await store.upsertDevice(device("a1", "aa01", user: "u1", tags: ["news", "sports"], zone: "Asia/Shanghai"))
            _ = try await store.upsertDevice(device("a1", "aa02", user: "u1", tags: ["news"], zone: "America/New_York"))
            _ = try await store.upsertDevice(device("a1", "aa03", user: "u2", tags: ["sports"]))
            _ = try await store.upsertDevice(device("a1", "aa04", user: "u3", kind: .voip))
            _ = try await store.upsertDevice(device("a1", "aa05", user: "u3"))
            _ = try await store.upsertDevice(device("a2", "bb01", user: "u1", tags: ["news"]))
            _ = try await store.applyFeedback(TokenFeedback(appID: "a1", token: "aa05", state: .invalid, reason: "BadDeviceToken", timestamp: now))

            func tokens(_ audience: Audience) async throws -> [String] {
                let outcome = try await store.enqueue(notification("a1", audience), idempotentSince: now)
                return try await store.deliveries(notificationID: outcome.notification.id, limit: 100).map(\.token)
            }
            #expect(try await tokens(Audience(.everyone)) == ["aa01", "aa02", "aa03"])
            #expect(try await tokens(Audience(.tokens(["aa03", "aa01", "bb01", "ffff"]))) == ["aa01", "aa03"])
            #expect(try await tokens(Audience(.users(["u1"]))) == ["aa01", "aa02"])
            #expect(try await tokens(Audience(.users(["u3"]))) == [])
            #expect(try await tokens(Audience(.users(["u3"]), kind: .voip)) == ["aa04"])
            #expect(try await tokens(Audience(.tags(["news", "sports"], match: .any))) == ["aa01", "aa02", "aa03"])
            #expect(try await tokens(Audience(.tags(["news", "sports", "news"], match: .all))) == ["aa01"])
            #expect(try await tokens(Audience(.tags([], match: .any))) == [])
            #expect(try await tokens(Audience(.everyone, timeZone: "Asia/Shanghai")) == ["aa01"])
            #expect(try await tokens(Audience(.everyone, timeZone: "")) == ["aa03"])
            #expect(try await store.timeZones(appID: "a1", audience: Audience(.everyone)) == ["", "America/New_York", "Asia/Shanghai"])
        }
    }

    @Test("an idempotency key within the window gives back the first notification", arguments: StoreBackend.available)
    func idempotency(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            _ = try await store.upsertDevice(device("a1", "aa01"))
            let first = try await store.enqueue(notification("a1", Audience(.everyone), key: "order-1"), idempotentSince: now.addingTimeInterval(-86_400))
            guard case .created(let created) = first else { Issue.record("expected created, got \(first)"); return }
            #expect(created.audienceSize == 1)
            let again = try await store.enqueue(
                notification("a1", Audience(.everyone), key: "order-1", at: now.addingTimeInterval(10)), idempotentSince: now.addingTimeInterval(-86_390)
            )
            #expect(again == .existing(created))
            #expect(try await store.queueDepth() == 1)
            // Another app may use the same key; after the window the key is new again.
            _ = try await store.upsertDevice(device("a2", "aa01"))
            let otherApp = try await store.enqueue(notification("a2", Audience(.everyone), key: "order-1"), idempotentSince: now)
            #expect(otherApp.notification.id != created.id)
            let later = try await store.enqueue(
                notification("a1", Audience(.everyone), key: "order-1", at: now.addingTimeInterval(90_000)),
                idempotentSince: now.addingTimeInterval(90_000 - 86_400)
            )
            #expect(later.notification.id != created.id)
            #expect(try await store.notification(appID: "a1", id: created.id) == created)
            #expect(try await store.notification(appID: "a2", id: created.id) == nil)
            #expect(try await store.message(notificationID: created.id) == Data("{}".utf8))
        }
    }

    @Test("claims lease rows to one owner; expired leases are taken over; outcomes are counted", arguments: StoreBackend.available)
    func claimsAndLeases(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            for index in 0..<10 { _ = try await store.upsertDevice(device("a1", String(format: "aa%02d", index))) }
            let sent = try await store.enqueue(notification("a1", Audience(.everyone)), idempotentSince: now).notification
            #expect(sent.audienceSize == 10)

            let first = try await store.claim(owner: "n1", limit: 4, lease: 30, now: now)
            let second = try await store.claim(owner: "n2", limit: 4, lease: 300, now: now)
            #expect(first.count == 4)
            #expect(second.count == 4)
            #expect(Set(first.map(\.id)).isDisjoint(with: second.map(\.id)))
            #expect(first.allSatisfy { $0.attempts == 1 && $0.notificationID == sent.id && $0.locale == "en-US" })

            // n1 dies: its leases end and n2 takes the rows over, with the attempt counted.
            let takeover = try await store.claim(owner: "n2", limit: 10, lease: 30, now: now.addingTimeInterval(31))
            #expect(Set(first.map(\.id)).isSubset(of: takeover.map(\.id)))
            #expect(Set(second.map(\.id)).isDisjoint(with: takeover.map(\.id)))
            #expect(takeover.count == 6)
            #expect(takeover.filter { first.map(\.id).contains($0.id) }.allSatisfy { $0.attempts == 2 })

            let finished = now.addingTimeInterval(32)
            var outcomes = second.map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, apnsID: "id-\($0.id)", finishedAt: finished) }
            outcomes += takeover.prefix(3).map { DeliveryOutcome(id: $0.id, state: .failed, status: 410, reason: "Unregistered", finishedAt: finished) }
            outcomes.append(DeliveryOutcome(id: takeover[3].id, state: .expired, finishedAt: finished))
            try await store.record(outcomes)
            try await store.releaseLeases(owner: "n2")

            var counts = try await store.counts(notificationID: sent.id)
            #expect(counts.sent == 4)
            #expect(counts.failed == 3)
            #expect(counts.failedByReason == ["Unregistered": 3])
            #expect(counts.expired == 1)
            #expect(counts.queued == 2)
            #expect(try await store.queueDepth() == 2)

            // Released rows are claimable at once.
            let rest = try await store.claim(owner: "n3", limit: 10, lease: 30, now: finished)
            #expect(rest.count == 2)
            try await store.record(rest.map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, finishedAt: finished) })
            counts = try await store.counts(notificationID: sent.id)
            #expect(counts.total == 10)
            #expect(counts.queued == 0)
            #expect(try await store.claim(owner: "n3", limit: 10, lease: 30, now: finished.addingTimeInterval(100)).isEmpty)

            let record = try #require(try await store.deliveries(notificationID: sent.id, limit: 100).first { $0.apnsID != nil })
            #expect(record.state == .sent)
            #expect(record.status == 200)
            #expect(record.finishedAt == finished)
        }
    }

    @Test("a delivery to retry stays queued, is not claimed before its time, shows why and when; renewed leases hold", arguments: StoreBackend.available)
    func retriesAndRenewedLeases(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            for index in 0..<4 { _ = try await store.upsertDevice(device("a1", String(format: "aa%02d", index))) }
            let sent = try await store.enqueue(notification("a1", Audience(.everyone)), idempotentSince: now).notification
            try await store.prepareToDeliver()
            let claimed = try await store.claim(owner: "n1", limit: 10, lease: 5, now: now)
            #expect(claimed.count == 4)
            // Two failed for a passing reason (one attempted, one put back unsent), one was sent;
            // the fourth is still held, its lease renewed by the live node.
            let retryAt = now.addingTimeInterval(20)
            try await store.record([
                .retry(id: claimed[0].id, at: retryAt, reason: "ConnectionFailed", now: now),
                .retry(id: claimed[1].id, at: retryAt, reason: "ConnectionFailed", now: now, attempted: false),
                DeliveryOutcome(id: claimed[2].id, state: .sent, status: 200, finishedAt: now),
            ])
            // A retry written again (its first write's answer was lost) counts its attempt once.
            try await store.record([.retry(id: claimed[0].id, at: retryAt, reason: "ConnectionFailed", now: now)], by: "n1")
            // Only the rows the node still works on are renewed.
            try await store.renewLeases(owner: "n1", ids: [claimed[3].id], until: now.addingTimeInterval(30))
            try await store.renewLeases(owner: "someone-else", ids: [claimed[3].id], until: now.addingTimeInterval(300))
            #expect(try await store.claim(owner: "n2", limit: 10, lease: 5, now: now.addingTimeInterval(10)).isEmpty)
            let counts = try await store.counts(notificationID: sent.id)
            #expect(counts.queued == 3 && counts.sent == 1 && counts.failed == 0)
            #expect(counts.retryingByReason == ["ConnectionFailed": 2])
            let summary = try await store.queueSummary(now: now)
            #expect(summary.depth == 3 && summary.retrying == 2 && summary.oldestQueuedAt == now)
            let records = try await store.deliveries(notificationID: sent.id, limit: 10)
            let first = try #require(records.first { $0.token == claimed[0].token })
            #expect(first.state == .queued && first.reason == "ConnectionFailed" && first.nextAttemptAt == retryAt && first.attempts == 1)
            #expect(records.first { $0.token == claimed[1].token }?.attempts == 0)

            // Due again, and the renewed lease ends at last (its node died): the rows to retry
            // and the row in flight are claimed, with the attempts counted so far (a store may
            // hold rows to retry until the rows claimed with them are recorded or their lease ends).
            let again = try await store.claim(owner: "n2", limit: 10, lease: 5, now: now.addingTimeInterval(31))
            #expect(Set(again.map(\.id)) == [claimed[0].id, claimed[1].id, claimed[3].id])
            #expect(again.first { $0.id == claimed[0].id }?.attempts == 2)
            #expect(again.first { $0.id == claimed[1].id }?.attempts == 1)
            #expect(again.first { $0.id == claimed[3].id }?.attempts == 2)
            try await store.record(again.map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, finishedAt: retryAt) })
            let after = try await store.deliveries(notificationID: sent.id, limit: 10).first { $0.token == claimed[0].token }
            #expect(after?.state == .sent && after?.reason == nil && after?.nextAttemptAt == nil && after?.attempts == 2)
            #expect(try await store.queueDepth() == 0)
        }
    }

    @Test("late and repeated outcomes never free a row its holder still sends", arguments: StoreBackend.available)
    func lateOutcomesKeepRowsInFlight(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            for index in 0..<4 { _ = try await store.upsertDevice(device("a1", String(format: "aa%02d", index))) }
            _ = try await store.enqueue(notification("a1", Audience(.everyone)), idempotentSince: now)
            let first = try await store.claim(owner: "n1", limit: 10, lease: 10, now: now)
            #expect(first.count == 4)
            // n1's lease ends; n2 takes the rows over.
            let second = try await store.claim(owner: "n2", limit: 10, lease: 30, now: now.addingTimeInterval(20))
            #expect(Set(second.map(\.id)) == Set(first.map(\.id)))
            // n1's outcome for the first row lands late (a retry, written twice): n2 holds the
            // row, so it is not written. n2 records the other three and still sends the first:
            // nobody else may take it.
            let late = DeliveryOutcome.retry(id: first[0].id, at: now.addingTimeInterval(21), reason: "ServiceUnavailable", now: now.addingTimeInterval(20))
            try await store.record([late], by: "n1")
            try await store.record([late], by: "n1")
            try await store.record(second.suffix(3).map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, finishedAt: now.addingTimeInterval(21)) }, by: "n2")
            #expect(try await store.claim(owner: "n3", limit: 10, lease: 30, now: now.addingTimeInterval(22)).isEmpty)
            #expect(try await store.deliveries(notificationID: second[0].notificationID, limit: 10).first { $0.id == second[0].id }?.reason == nil)
            // A late final outcome is written (APNs took the notification), and frees nothing
            // that is still sent.
            try await store.record([DeliveryOutcome(id: second[1].id, state: .sent, status: 200, finishedAt: now.addingTimeInterval(22))], by: "n1")
            try await store.record([DeliveryOutcome(id: second[0].id, state: .sent, status: 200, finishedAt: now.addingTimeInterval(23))], by: "n2")
            #expect(try await store.queueDepth() == 0)
            #expect(try await store.claim(owner: "n3", limit: 10, lease: 30, now: now.addingTimeInterval(24)).isEmpty)
        }
    }

    @Test("rows to retry are claimed when due once the rows claimed with them are recorded", arguments: StoreBackend.available)
    func retriesComeBackWhenDue(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            for index in 0..<3 { _ = try await store.upsertDevice(device("a1", String(format: "aa%02d", index))) }
            _ = try await store.enqueue(notification("a1", Audience(.everyone)), idempotentSince: now)
            let claimed = try await store.claim(owner: "n1", limit: 10, lease: 60, now: now)
            #expect(claimed.count == 3)
            let retryAt = now.addingTimeInterval(20)
            try await store.record([
                .retry(id: claimed[0].id, at: retryAt, reason: "TooManyRequests", now: now),
                DeliveryOutcome(id: claimed[1].id, state: .sent, status: 200, finishedAt: now),
            ])
            try await store.record([.retry(id: claimed[2].id, at: retryAt.addingTimeInterval(5), reason: "TooManyRequests", now: now)])
            #expect(try await store.claim(owner: "n2", limit: 10, lease: 60, now: retryAt.addingTimeInterval(-1)).isEmpty)
            // Well within the first claim's lease: each when due.
            let due = try await store.claim(owner: "n2", limit: 10, lease: 60, now: retryAt)
            #expect(due.map(\.id) == [claimed[0].id])
            try await store.record([DeliveryOutcome(id: claimed[0].id, state: .sent, status: 200, finishedAt: retryAt)])
            #expect(try await store.claim(owner: "n3", limit: 10, lease: 60, now: retryAt.addingTimeInterval(5)).map(\.id) == [claimed[2].id])
            #expect(try await store.queueDepth() == 1)
        }
    }

    @Test("the webhook outbox keeps events until finished: leased to one node, retried when due, attempts counted", arguments: StoreBackend.available)
    func webhookOutbox(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            try await store.enqueueWebhookEvent(appID: "a1", body: #"{"n":1}"#, now: now)
            try await store.enqueueWebhookEvent(appID: "a1", body: #"{"n":2}"#, now: now)
            let first = try await store.claimWebhookEvents(owner: "n1", now: now, lease: 60, limit: 10)
            #expect(first.map(\.body) == [#"{"n":1}"#, #"{"n":2}"#])
            #expect(first.allSatisfy { $0.attempts == 1 && $0.appID == "a1" && $0.createdAt == now })
            #expect(try await store.claimWebhookEvents(owner: "n2", now: now.addingTimeInterval(1), lease: 60, limit: 10).isEmpty)
            try await store.finishWebhookEvent(id: first[0].id)
            try await store.retryWebhookEvent(id: first[1].id, at: now.addingTimeInterval(30), error: "answered 503")
            #expect(try await store.claimWebhookEvents(owner: "n2", now: now.addingTimeInterval(10), lease: 60, limit: 10).isEmpty)
            let again = try await store.claimWebhookEvents(owner: "n2", now: now.addingTimeInterval(31), lease: 60, limit: 10)
            #expect(again.map(\.id) == [first[1].id] && again.first?.attempts == 2)
            // A node that died holding it: the lease ends and another node takes it.
            #expect(try await store.claimWebhookEvents(owner: "n3", now: now.addingTimeInterval(92), lease: 60, limit: 10).map(\.id) == [first[1].id])
        }
    }

    @Test("send reservations: a one-second burst, then waits that keep the rate", arguments: StoreBackend.available)
    func sendReservations(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            var waits: [TimeInterval] = []
            waits.append(try await store.reserveSends(appID: "a1", count: 100, perSecond: 100, now: now))
            waits.append(try await store.reserveSends(appID: "a1", count: 50, perSecond: 100, now: now))
            waits.append(try await store.reserveSends(appID: "a1", count: 50, perSecond: 100, now: now))
            // A second later, one second of tokens came back: the debt is half a second.
            waits.append(try await store.reserveSends(appID: "a1", count: 50, perSecond: 100, now: now.addingTimeInterval(1)))
            // Other apps have their own buckets.
            waits.append(try await store.reserveSends(appID: "a2", count: 10, perSecond: 100, now: now))
            #expect(zip(waits, [0, 0.5, 1.0, 0.5, 0]).allSatisfy { abs($0 - $1) < 0.001 }, "\(waits)")
        }
    }

    @Test("bulk registration in one call; a batch's outcomes, runs of plain sends among others, are each recorded", arguments: StoreBackend.available)
    func bulkRegistrationAndRecordedRuns(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            // The same token twice in one call: the later registration wins.
            let devices = (0..<20).map { device("a1", String(format: "bb%02d", $0), tags: ["t\($0 % 2)"]) } + [device("a1", "bb00", tags: ["late"])]
            #expect(try await store.upsertDevices(devices).count == 21)
            #expect(try await store.device(appID: "a1", token: "bb00")?.tags == ["late"])
            // Absent and empty stay apart; a call larger than one statement's batch (10,000) is whole.
            let sparse = StoredDevice(appID: "a9", token: "cc00", environment: .production, appVersion: "", registeredAt: now, encryptionKey: "key")
            _ = try await store.upsertDevices([sparse])
            let read = try await store.device(appID: "a9", token: "cc00")
            #expect(read?.appVersion == "" && read?.userID == nil && read?.locale == nil && read?.encryptionKey == "key" && read?.environment == .production)
            let many = (0..<12_345).map { StoredDevice(appID: "a8", token: String(format: "dd%06d", $0), environment: .development, tags: ["bulk"], registeredAt: now) }
            #expect(try await store.upsertDevices(many).count == 12_345)
            for token in ["dd000000", "dd009999", "dd010000", "dd012344"] {
                #expect(try await store.device(appID: "a8", token: token)?.tags == ["bulk"], "\(token)")
            }
            let odd = try await store.enqueue(notification("a1", Audience(.tags(["t1"], match: .any))), idempotentSince: now).notification
            #expect(odd.audienceSize == 10)
            let sent = try await store.enqueue(notification("a1", Audience(.everyone)), idempotentSince: now).notification
            #expect(sent.audienceSize == 20)

            let batch = try await store.claim(owner: "n1", limit: 30, lease: 30, now: now).filter { $0.notificationID == sent.id }.sorted { $0.id < $1.id }
            #expect(batch.count == 20)
            let finished = now.addingTimeInterval(1)
            var outcomes = batch.map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, finishedAt: finished) }
            outcomes[5] = DeliveryOutcome(id: batch[5].id, state: .failed, status: 400, reason: "BadDeviceToken", finishedAt: finished)
            outcomes[6] = DeliveryOutcome(id: batch[6].id, state: .sent, status: 200, apnsID: "changed-by-apns", finishedAt: finished)
            outcomes[12] = DeliveryOutcome(id: batch[12].id, state: .expired, finishedAt: finished)
            try await store.record(outcomes.shuffled())

            let counts = try await store.counts(notificationID: sent.id)
            #expect(counts.sent == 18 && counts.failed == 1 && counts.expired == 1 && counts.queued == 0)
            // The other notification's rows were claimed by the same call and are untouched.
            #expect(try await store.counts(notificationID: odd.id).queued == 10)
            let records = try await store.deliveries(notificationID: sent.id, limit: 100)
            #expect(records.count == 20)
            #expect(records.filter { $0.state == .sent && $0.apnsID == nil && $0.status == 200 }.count == 17)
            #expect(records.first { $0.apnsID != nil }?.apnsID == "changed-by-apns")
            #expect(records.first { $0.state == .failed }?.reason == "BadDeviceToken")
            #expect(records.allSatisfy { $0.finishedAt == finished })
        }
    }

    @Test("two owners claiming at once never get the same row", arguments: StoreBackend.available)
    func concurrentClaims(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            for index in 0..<50 { _ = try await store.upsertDevice(device("a1", String(format: "cc%03d", index))) }
            for _ in 0..<10 { _ = try await store.enqueue(notification("a1", Audience(.everyone)), idempotentSince: now) }
            let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for owner in 0..<4 {
                    group.addTask {
                        var ids: [Int64] = []
                        while true {
                            let batch = try await store.claim(owner: "n\(owner)", limit: 7, lease: 60, now: now)
                            if batch.isEmpty { return ids }
                            ids += batch.map(\.id)
                            try await store.record(batch.map { DeliveryOutcome(id: $0.id, state: .sent, status: 200, finishedAt: now) })
                        }
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0 += $1 }
            }
            #expect(claimed.count == 500)
            #expect(Set(claimed).count == 500)
        }
    }

    @Test("a device's deliveries come newest first", arguments: StoreBackend.available)
    func deviceHistory(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            _ = try await store.upsertDevice(device("a1", "aa01"))
            var ids: [String] = []
            for index in 0..<3 {
                ids.append(try await store.enqueue(notification("a1", Audience(.everyone), at: now.addingTimeInterval(Double(index))), idempotentSince: now).notification.id)
            }
            #expect(try await store.deliveries(appID: "a1", token: "aa01", limit: 2).map(\.notificationID) == [ids[2], ids[1]])
            #expect(try await store.deliveries(appID: "a2", token: "aa01", limit: 10).isEmpty)
        }
    }

    @Test("schedules: replace by id, claim when due (once while leased), then save progress or finish", arguments: StoreBackend.available)
    func schedules(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let trigger = Data("{\"at\":1}".utf8)
            try await store.upsertSchedule(StoredSchedule(id: "morning", appID: "a1", trigger: trigger, request: Data(), nextCheckAt: now, createdAt: now))
            try await store.upsertSchedule(StoredSchedule(id: "later", appID: "a1", trigger: trigger, request: Data(), nextCheckAt: now + 3600, createdAt: now))
            try await store.upsertSchedule(StoredSchedule(id: "morning", appID: "a2", trigger: trigger, request: Data(), nextCheckAt: now, createdAt: now))
            var replaced = StoredSchedule(id: "morning", appID: "a1", trigger: Data("{\"at\":2}".utf8), request: Data(), nextCheckAt: now, createdAt: now)
            try await store.upsertSchedule(replaced)
            #expect(try await store.schedules(appID: "a1").map(\.id) == ["morning", "later"])
            #expect(try await store.schedule(appID: "a1", id: "morning")?.trigger == replaced.trigger)

            let due = try await store.claimDueSchedules(owner: "n1", now: now, lease: 60, limit: 10)
            #expect(Set(due.map { "\($0.appID)/\($0.id)" }) == ["a1/morning", "a2/morning"])
            #expect(try await store.claimDueSchedules(owner: "n2", now: now + 1, lease: 60, limit: 10).isEmpty)

            replaced.nextCheckAt = now + 86_400
            replaced.fireCount = 1
            replaced.firedThrough = ["Asia/Shanghai": now]
            // Only the node holding the lease saves progress.
            try await store.finishFiring(replaced, finished: false, owner: "n2")
            #expect(try await store.schedule(appID: "a1", id: "morning")?.fireCount == 0)
            try await store.finishFiring(replaced, finished: false, owner: "n1")
            #expect(try await store.schedule(appID: "a1", id: "morning") == replaced)
            // A schedule replaced while a node fires it (the replacement ends the lease): that
            // node's finish neither deletes the new one nor writes the old one back.
            let firing = try #require(due.first { $0.appID == "a2" })
            let renewed = StoredSchedule(id: "morning", appID: "a2", trigger: Data("{\"at\":3}".utf8), request: Data(), nextCheckAt: now + 60, createdAt: now + 1)
            try await store.upsertSchedule(renewed)
            try await store.finishFiring(firing, finished: true, owner: "n1")
            #expect(try await store.schedule(appID: "a2", id: "morning") == renewed)
            _ = try await store.claimDueSchedules(owner: "n1", now: now + 60, lease: 60, limit: 10)
            try await store.finishFiring(renewed, finished: true, owner: "n1")
            #expect(try await store.schedule(appID: "a2", id: "morning") == nil)

            // The lease of a dead node ends.
            #expect(try await store.claimDueSchedules(owner: "n2", now: now + 4000, lease: 60, limit: 10).map(\.id) == ["later"])
            #expect(try await store.deleteSchedule(appID: "a1", id: "later"))
            #expect(try await store.deleteSchedule(appID: "a1", id: "later") == false)
        }
    }
}
