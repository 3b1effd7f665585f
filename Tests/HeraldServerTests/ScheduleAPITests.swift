import Foundation
import HeraldCore
import Testing
@testable import HeraldServer

@Suite("API: schedules")
struct ScheduleAPITests {
    @Test("schedules are created, listed, replaced by id and cancelled; triggers are checked")
    func crud() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            let notification: [String: Any] = ["to": ["all": true], "message": ["body": "Good morning"]]
            let created = try await api.call(.post, "/v1/schedules", key: app.key, json: ["id": "morning", "trigger": ["daily": "09:00"], "notification": notification])
            #expect(created.status == 201, "\(created.text)")
            let replaced = try await api.call(.put, "/v1/schedules/morning", key: app.key, json: ["trigger": ["daily": "08:30"], "notification": notification])
            #expect(replaced.status == 200)
            _ = try await api.call(.post, "/v1/schedules", key: app.key, json: ["id": "hourly", "trigger": ["every": 3600], "notification": notification])
            let list = try await api.call(.get, "/v1/schedules", key: app.key)
            let schedules = try #require(list["schedules"] as? [[String: Any]])
            #expect(schedules.count == 2)
            #expect((schedules.first { $0["id"] as? String == "morning" }?["trigger"] as? [String: Any])?["daily"] as? String == "08:30")
            #expect(try await api.call(.get, "/v1/schedules/morning", key: app.key).status == 200)

            for (trigger, words) in [
                (["every": 30], "at least 60 seconds"),
                (["daily": "9am"], "\"HH:mm\""),
                (["weekly": ["weekday": 8, "time": "09:00"]], "1 (Sunday) to 7"),
                (["after": 5, "every": 60], "exactly one of"),
            ] as [([String: Any], String)] {
                let answer = try await api.call(.post, "/v1/schedules", key: app.key, json: ["trigger": trigger, "notification": notification])
                #expect(answer.status == 400)
                #expect(answer.errorMessage.contains(words), "\(answer.errorMessage)")
            }
            let other = try await api.createApp(admin: admin, bundleID: "com.example.other")
            #expect(try await api.call(.delete, "/v1/schedules/morning", key: other.key).status == 404)
            #expect(try await api.call(.delete, "/v1/schedules/morning", key: app.key).status == 204)
            #expect(try await api.call(.get, "/v1/schedules/morning", key: app.key).status == 404)
        }
    }

    @Test("a daily 09:00 schedule fires at 09:00 local time in Asia/Shanghai and in America/New_York")
    func dailyPerTimeZone() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        let clock = test.clock
        let server = test.server
        // 2026-11-22 00:30 UTC = 08:30 in Shanghai (UTC+8) = 19:30 the day before in New York (UTC-5).
        clock.set(Date(timeIntervalSince1970: 1_795_307_400))
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            _ = try await api.call(.put, "/v1/devices/\(token(1))", key: app.key, json: ["environment": "development", "timeZone": "Asia/Shanghai"])
            _ = try await api.call(.put, "/v1/devices/\(token(2))", key: app.key, json: ["environment": "development", "timeZone": "America/New_York"])
            let created = try await api.call(.post, "/v1/schedules", key: app.key, json: [
                "id": "morning", "trigger": ["daily": "09:00"], "notification": ["to": ["all": true], "message": ["body": "早上好 / Good morning"]],
            ])
            #expect(created.status == 201)

            func fire(at utc: String) async throws -> [String] {
                clock.set(ISO8601DateFormatter().date(from: utc)!)
                var tokens: [String] = []
                _ = try await server.scheduler.tick()
                for number in 1...2 {
                    let history = try await api.call(.get, "/v1/devices/\(token(number))/deliveries", key: app.key)
                    tokens += ((history["deliveries"] as? [[String: Any]]) ?? []).map { _ in token(number) }
                }
                return tokens
            }
            #expect(try await fire(at: "2026-11-22T00:59:00Z") == [])  // 08:59 Shanghai
            #expect(try await fire(at: "2026-11-22T01:00:00Z") == [token(1)])  // 09:00 Shanghai
            #expect(try await fire(at: "2026-11-22T01:30:00Z") == [token(1)])  // no second firing
            #expect(try await fire(at: "2026-11-22T13:59:00Z") == [token(1)])  // 08:59 New York
            #expect(try await fire(at: "2026-11-22T14:00:00Z") == [token(1), token(2)])  // 09:00 New York (EST, UTC-5)
            #expect(try await fire(at: "2026-11-23T01:00:00Z") == [token(1), token(1), token(2)])  // the next day in Shanghai
            let schedule = try await api.call(.get, "/v1/schedules/morning", key: app.key)
            #expect(schedule["fireCount"] as? Int == 3)
            #expect((schedule["firedThrough"] as? [String: String])?.keys.sorted() == ["America/New_York", "Asia/Shanghai"])
        }
    }

    @Test("after a delay fires once and is gone; every N seconds fires again after N seconds")
    func onceAndRepeating() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        let clock = test.clock
        let server = test.server
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            _ = try await api.call(.put, "/v1/devices/\(token(1))", key: app.key, json: ["environment": "development"])
            let notification: [String: Any] = ["to": ["all": true], "message": ["body": "tick"]]
            _ = try await api.call(.post, "/v1/schedules", key: app.key, json: ["id": "soon", "trigger": ["after": 300], "notification": notification])
            _ = try await api.call(.post, "/v1/schedules", key: app.key, json: ["id": "every", "trigger": ["every": 600], "notification": notification])
            #expect(try await server.scheduler.tick() == 0)
            clock.advance(by: 300)
            #expect(try await server.scheduler.tick() == 1)
            #expect(try await api.call(.get, "/v1/schedules/soon", key: app.key).status == 404)
            clock.advance(by: 300)
            #expect(try await server.scheduler.tick() == 1)
            #expect(try await server.scheduler.tick() == 0)
            clock.advance(by: 600)
            #expect(try await server.scheduler.tick() == 1)
            #expect((try await api.call(.get, "/v1/schedules/every", key: app.key))["fireCount"] as? Int == 2)
        }
    }
    @Test("a firing stored by a node that stopped before finishing it is not sent again by the node that takes the schedule over")
    func firingTakenOverIsNotSentTwice() async throws {
        let test = try await TestServer.make()
        let clock = test.clock
        let server = test.server
        try await test.run { api in
            let app = try await api.createApp(admin: test.admin)
            _ = try await api.call(.put, "/v1/devices/\(token(1))", key: app.key, json: ["environment": "development"])
            let notification: [String: Any] = ["to": ["all": true], "message": ["body": "tick"]]
            _ = try await api.call(.post, "/v1/schedules", key: app.key, json: ["id": "soon", "trigger": ["after": 300], "notification": notification])
            _ = try await api.call(.post, "/v1/schedules", key: app.key, json: ["id": "every", "trigger": ["every": 600], "notification": notification])
            clock.advance(by: 600)
            // Node b leases both schedules, stores the first firing's notification and stops
            // before it finishes the firing.
            var other = server.configuration
            other.nodeID = "node-b"
            let stopping = Scheduler(store: server.store, configuration: other) { notification, since in
                _ = try await server.store.enqueue(notification, idempotentSince: since)
                throw CancellationError()
            }
            await #expect(throws: CancellationError.self) { try await stopping.tick() }
            #expect(try await server.scheduler.tick() == 0)
            clock.advance(by: 61)
            #expect(try await server.scheduler.tick() == 2)
            let listed = try #require(try await api.call(.get, "/v1/notifications", key: app.key)["notifications"] as? [[String: Any]])
            #expect(listed.count == 2)
            #expect(Set(listed.compactMap { $0["scheduleId"] as? String }) == ["soon", "every"])
            #expect(listed.allSatisfy { ($0["idempotencyKey"] as? String)?.hasPrefix("herald:schedule:") == true })
            #expect((try await api.call(.get, "/v1/schedules/every", key: app.key))["fireCount"] as? Int == 1)
            // The scheduler's keys are its own.
            let reserved = try await api.call(.post, "/v1/notifications", key: app.key, json: notification, headers: [.init("Idempotency-Key")!: "herald:mine"])
            #expect(reserved.status == 400)
            #expect(reserved.errorMessage.contains("herald:"))
        }
    }
}
