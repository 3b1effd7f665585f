import Foundation
import HeraldCore
import HeraldSandbox
import Testing
@testable import HeraldServer

@Suite("Retention in the background")
struct RetentionServiceTests {
    @Test("history older than the policy goes by itself, a deleted app's rows too; keeping everything leaves the server running")
    func oldHistoryGoes() async throws {
        var policy = RetentionPolicy(maximumAge: 86_400, perDevice: 1)
        policy.interval = .milliseconds(100)
        policy.deviceSweepInterval = .milliseconds(100)
        let test = try await TestServer.make(retention: policy)
        let (admin, clock, store) = (test.admin, test.clock, test.server.store)
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            _ = try await api.call(.put, "/v1/devices", key: app.key, json: (1...3).map { ["token": token($0), "environment": "development"] })
            var ids: [String] = []
            for _ in 0..<2 {
                let sent = try await api.call(.post, "/v1/notifications?wait=true", key: app.key, json: ["to": ["all": true], "message": ["title": "T", "body": "B"]])
                ids.append(try #require(sent["id"] as? String, "\(sent.text)"))
                clock.advance(by: 60)
            }
            // Each device keeps its newest delivery only.
            try await Self.eventually { (try await store.deliveries(appID: app.id, token: token(1), limit: 10)).count == 1 }
            #expect(try await store.counts(notificationID: ids[1]).sent == 3)
            // Two days on, both notifications are older than a day.
            clock.advance(by: 2 * 86_400)
            try await Self.eventually { try await api.call(.get, "/v1/notifications/\(ids[1])", key: app.key).status == 404 }
            #expect(try await api.call(.get, "/v1/notifications/\(ids[0])", key: app.key).status == 404)

            let other = try await api.createApp(admin: admin, bundleID: "com.example.other")
            _ = try await api.call(.put, "/v1/devices/\(token(9))", key: other.key, json: ["environment": "development"])
            #expect(try await api.call(.delete, "/v1/apps/\(other.id)", key: admin).status == 204)
            try await Self.eventually { try await store.device(appID: other.id, token: token(9)) == nil }
        }

        let keeping = try await TestServer.make(retention: .keepEverything)
        try await keeping.run { api in
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await api.call(.get, "/health").status == 200)
        }
    }

    static func eventually(within seconds: Double = 10, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("not within \(seconds) s")
    }
}
