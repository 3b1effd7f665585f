import Foundation
import HeraldSandbox
import HTTPTypes
import HeraldCore
import Testing
@testable import HeraldServer

@Suite("API: bulk registration, paged lists, cancelling, apps and admin keys")
struct BulkAndListAPITests {
    @Test("PUT /v1/devices registers many in one call; each item is answered in order; bad items change nothing and stop nothing")
    func bulkRegistration() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            let items: [[String: Any]] = [
                ["token": token(1), "environment": "development", "userId": "alice", "tags": ["news"]],
                ["token": token(2), "environment": "staging"],
                ["token": token(3).uppercased(), "environment": "production", "kind": "voip"],
                ["token": "xyz", "environment": "production"],
                ["token": token(1), "environment": "production"],
                ["token": token(4), "environment": "production", "userID": "bob"],
                ["environment": "production"],
                ["token": token(5), "environment": "production", "tags": "news"],
            ]
            let answer = try await api.call(.put, "/v1/devices", key: app.key, json: items)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer["created"] as? Int == 2)
            #expect(answer["refused"] as? Int == 6)
            let results = try #require(answer["results"] as? [[String: Any]])
            #expect(results.map { $0["index"] as? Int } == Array(0..<8))
            #expect(results.map { $0["status"] as? String } == ["created", "refused", "created", "refused", "refused", "refused", "refused", "refused"])
            let errors = results.map { $0["error"] as? String ?? "" }
            #expect(errors[1].contains("production or development"))
            #expect(results[2]["token"] as? String == token(3))
            #expect(errors[3].hasPrefix("device token:"))
            #expect(errors[4].contains("listed twice; item 0"))
            #expect(errors[5].contains("unknown field 'userID'"), "\(errors[5])")
            #expect(errors[6].contains("missing field 'token'"), "\(errors[6])")
            #expect(errors[7].contains("field 'tags' must be an array"), "\(errors[7])")
            #expect(try await api.call(.get, "/v1/devices/\(token(2))", key: app.key).status == 404)
            #expect(try await api.call(.get, "/v1/devices/\(token(1))", key: app.key)["environment"] as? String == "development")

            // Again: the same tokens are updated.
            let again = try await api.call(.put, "/v1/devices", key: app.key, json: [["token": token(1), "environment": "production"], ["token": token(9), "environment": "production"]])
            #expect(again["updated"] as? Int == 1 && again["created"] as? Int == 1, "\(again.text)")

            #expect(try await api.call(.put, "/v1/devices", key: app.key, json: ["token": token(1)]).errorMessage.contains("JSON array"))
            #expect(try await api.call(.put, "/v1/devices", key: app.key, raw: "[{").status == 400)
            let tooMany = (0...10_000).map { ["token": token($0), "environment": "production"] }
            let refused = try await api.call(.put, "/v1/devices", key: app.key, json: tooMany)
            #expect(refused.status == 413)
            #expect(refused.errorMessage.contains("at most 10000 devices"), "\(refused.errorMessage)")
            let full = try await api.call(.put, "/v1/devices", key: app.key, json: Array(tooMany.prefix(10_000)))
            #expect(full.status == 200)
            #expect((full["created"] as? Int ?? 0) + (full["updated"] as? Int ?? 0) == 10_000, "\(full.text.prefix(300))")
        }
    }

    @Test("GET /v1/devices pages by cursor with filters; cursors and parameters are checked")
    func devicePages() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            let items: [[String: Any]] = (1...25).map { number in
                ["token": token(number), "environment": number <= 20 ? "development" : "production", "tags": number % 2 == 0 ? ["even"] : ["odd"], "userId": "u\(number % 3)"]
            }
            #expect(try await api.call(.put, "/v1/devices", key: app.key, json: items)["created"] as? Int == 25)
            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try await api.call(.get, "/v1/devices?limit=10" + (cursor.map { "&cursor=\($0)" } ?? ""), key: app.key)
                #expect(page.status == 200, "\(page.text)")
                seen += (page["devices"] as? [[String: Any]] ?? []).compactMap { $0["token"] as? String }
                cursor = page["nextCursor"] as? String
                pages += 1
            } while cursor != nil && pages < 10
            #expect(seen == (1...25).map { token($0) })
            #expect(pages == 3)
            let even = try await api.call(.get, "/v1/devices?tag=even&environment=production", key: app.key)
            #expect((even["devices"] as? [[String: Any]])?.compactMap { $0["token"] as? String } == [22, 24].map { token($0) })
            #expect(try await api.call(.get, "/v1/devices?user=u1&state=active&kind=alert", key: app.key)["devices"].map { ($0 as? [Any])?.count } == 9)

            for (query, words) in [
                ("cursor=bm9wZQ", "another list"), ("cursor=!!", "not one this server gave"), ("state=gone", "active, unregistered, invalid"),
                ("kind=watch", "alert, voip"), ("environment=staging", "production or development"), ("userId=a", "unknown parameter 'userId'"),
                ("limit=0", "limit must be 1 to 1000"),
            ] {
                let answer = try await api.call(.get, "/v1/devices?\(query)", key: app.key)
                #expect(answer.status == 400)
                #expect(answer.errorMessage.contains(words), "\(query): \(answer.errorMessage)")
            }
        }
    }

    @Test("notifications list newest first by status; deliveries page beyond 1,000; unregistered to.tokens are reported")
    func notificationPages() async throws {
        let test = try await TestServer.make()
        let (admin, clock) = (test.admin, test.clock)
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            let devices = (1...1_500).map { ["token": token($0), "environment": "development"] }
            #expect(try await api.call(.put, "/v1/devices", key: app.key, json: devices)["created"] as? Int == 1_500)
            _ = try await api.call(.put, "/v1/devices/\(token(2_000))", key: app.key, json: ["environment": "development", "kind": "voip"])
            let broadcast = try await api.call(.post, "/v1/notifications", key: app.key, json: ["to": ["all": true], "message": ["title": "Hi", "body": "there"]])
            let id = try #require(broadcast["id"] as? String, "\(broadcast.text)")
            clock.advance(by: 1)
            let few = try await api.call(
                .post, "/v1/notifications?wait=true", key: app.key,
                json: ["to": ["tokens": [token(1), token(1_999), token(2_000)]], "message": ["title": "Few", "body": "of you"]]
            )
            #expect(few["audienceSize"] as? Int == 1)
            let skipped = try #require(few["skippedTokens"] as? [[String: Any]])
            #expect(skipped.compactMap { $0["token"] as? String } == [token(1_999), token(2_000)])
            #expect((skipped[0]["why"] as? String)?.contains("not registered") == true)
            #expect((skipped[1]["why"] as? String)?.contains("registered as a voip token") == true, "\(skipped)")

            // The broadcast finishes; its deliveries come a page at a time.
            var report = try await api.call(.get, "/v1/notifications/\(id)", key: app.key)
            for _ in 0..<300 where report["pending"] as? Int != 0 {
                try await Task.sleep(for: .milliseconds(50))
                report = try await api.call(.get, "/v1/notifications/\(id)", key: app.key)
            }
            #expect(report["status"] as? String == "finished", "\(report.text)")
            var tokens: [String] = []
            var cursor: String?
            repeat {
                let page = try await api.call(.get, "/v1/notifications/\(id)/deliveries?limit=1000" + (cursor.map { "&cursor=\($0)" } ?? ""), key: app.key)
                #expect(page.status == 200, "\(page.text.prefix(300))")
                tokens += (page["deliveries"] as? [[String: Any]] ?? []).compactMap { $0["token"] as? String }
                cursor = page["nextCursor"] as? String
            } while cursor != nil && tokens.count < 5_000
            #expect(tokens.count == 1_500)
            #expect(Set(tokens).count == 1_500)
            #expect((try await api.call(.get, "/v1/notifications/\(id)/deliveries?state=failed", key: app.key)["deliveries"] as? [Any])?.isEmpty == true)
            #expect(try await api.call(.get, "/v1/notifications/\(id)/deliveries?limit=1001", key: app.key).status == 400)

            let list = try await api.call(.get, "/v1/notifications", key: app.key)
            let listed = try #require(list["notifications"] as? [[String: Any]])
            #expect(listed.compactMap { $0["id"] as? String }.last == id)
            #expect(listed.count == 2)
            #expect(try await api.call(.get, "/v1/notifications?status=sending", key: app.key)["notifications"].map { ($0 as? [Any])?.count } == 0)
            let firstPage = try await api.call(.get, "/v1/notifications?limit=1", key: app.key)
            let next = try #require(firstPage["nextCursor"] as? String)
            let second = try await api.call(.get, "/v1/notifications?limit=1&cursor=\(next)", key: app.key)
            #expect((second["notifications"] as? [[String: Any]])?.first?["id"] as? String == id)
            #expect(try await api.call(.get, "/v1/notifications?since=yesterday", key: app.key).errorMessage.contains("ISO 8601"))
            let later = ISO8601DateFormatter().string(from: clock.now.addingTimeInterval(3_600))
            #expect((try await api.call(.get, "/v1/notifications?since=\(later)", key: app.key)["notifications"] as? [Any])?.isEmpty == true)
            #expect(try await api.call(.get, "/v1/devices?cursor=\(next)", key: app.key).status == 400)
            #expect(try await api.call(.post, "/v1/notifications/\(id)/cancel", key: app.key).status == 409)
        }
    }

    @Test("cancelling a broadcast going out: what was sent stays recorded, the rest is cancelled and never sent")
    func cancelling() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        let sandbox = test.sandbox
        try await test.run { api in
            // Four a second: most of the audience is still waiting when the cancel comes.
            let app = try await api.createApp(admin: admin, extra: ["rateLimit": 4])
            let devices = (1...40).map { ["token": token($0), "environment": "development"] }
            _ = try await api.call(.put, "/v1/devices", key: app.key, json: devices)
            let sent = try await api.call(.post, "/v1/notifications", key: app.key, json: ["to": ["all": true], "message": ["title": "Sale", "body": "today"]])
            let id = try #require(sent["id"] as? String, "\(sent.text)")
            try await Task.sleep(for: .milliseconds(700))
            let cancelled = try await api.call(.post, "/v1/notifications/\(id)/cancel", key: app.key)
            #expect(cancelled.status == 200, "\(cancelled.text)")
            #expect(cancelled["status"] as? String == "cancelled")
            #expect(cancelled["cancelledAt"] != nil)
            var report = try await api.call(.get, "/v1/notifications/\(id)", key: app.key)
            for _ in 0..<200 where report["pending"] as? Int != 0 {
                try await Task.sleep(for: .milliseconds(50))
                report = try await api.call(.get, "/v1/notifications/\(id)", key: app.key)
            }
            try await Task.sleep(for: .seconds(1))
            report = try await api.call(.get, "/v1/notifications/\(id)", key: app.key)
            let sentCount = try #require(report["sent"] as? Int)
            let cancelledCount = try #require(report["cancelled"] as? Int)
            #expect(sentCount + cancelledCount == 40, "\(report.text)")
            #expect(sentCount > 0 && cancelledCount > 20, "\(report.text)")
            // What the sandbox received is exactly what the report calls sent.
            let received = (1...40).filter { !sandbox.state.received(token: token($0)).isEmpty }.count
            #expect(received == sentCount)
            #expect(try await api.call(.post, "/v1/notifications/\(id)/cancel", key: app.key)["status"] as? String == "cancelled")
            let listed = try await api.call(.get, "/v1/notifications?status=cancelled", key: app.key)
            #expect((listed["notifications"] as? [[String: Any]])?.first?["id"] as? String == id)
            #expect(try await api.call(.post, "/v1/notifications/nope/cancel", key: app.key).status == 404)
        }
    }

    @Test("DELETE /v1/apps/{id} removes the app and what it owns; admin keys rotate, never the last one")
    func appDeletionAndAdminKeys() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        try await test.run { api in
            let doomed = try await api.createApp(admin: admin, bundleID: "com.example.doomed")
            let kept = try await api.createApp(admin: admin, bundleID: "com.example.kept")
            _ = try await api.call(.put, "/v1/devices/\(token(1))", key: doomed.key, json: ["environment": "development"])
            _ = try await api.call(.put, "/v1/devices/\(token(1))", key: kept.key, json: ["environment": "development"])
            #expect(try await api.call(.delete, "/v1/apps/\(doomed.id)", key: doomed.key).status == 403)
            #expect(try await api.call(.delete, "/v1/apps/\(doomed.id)", key: admin).status == 204)
            #expect(try await api.call(.delete, "/v1/apps/\(doomed.id)", key: admin).status == 404)
            #expect(try await api.call(.get, "/v1/devices/\(token(1))", key: doomed.key).status == 401)
            #expect(try await api.call(.get, "/v1/devices/\(token(1))", key: kept.key).status == 200)
            #expect((try await api.call(.get, "/v1/apps", key: admin)["apps"] as? [[String: Any]])?.count == 1)

            let created = try await api.call(.post, "/v1/admin/keys", key: admin)
            #expect(created.status == 201)
            let newSecret = try #require(created["secret"] as? String)
            let keys = try #require(try await api.call(.get, "/v1/admin/keys", key: newSecret)["keys"] as? [[String: Any]])
            #expect(keys.count == 2)
            #expect(keys.allSatisfy { $0["secret"] == nil })
            let oldID = try #require(keys.first { $0["id"] as? String != created["id"] as? String }?["id"] as? String)
            #expect(try await api.call(.delete, "/v1/admin/keys/\(oldID)", key: newSecret).status == 204)
            #expect(try await api.call(.get, "/v1/apps", key: admin).status == 401)
            let last = try await api.call(.delete, "/v1/admin/keys/\(created["id"] as! String)", key: newSecret)
            #expect(last.status == 409)
            #expect(last.errorMessage.contains("last admin key"))
            #expect(try await api.call(.post, "/v1/admin/keys", key: kept.key).status == 403)
        }
    }
}
