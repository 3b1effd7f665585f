import Foundation
import HTTPTypes
import HeraldCore
import Testing
@testable import HeraldServer

@Suite("API: devices")
struct DeviceAPITests {
    @Test("register is an idempotent upsert; lookup by token and user; unregister; every field is checked")
    func devices() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            let device: [String: Any] = [
                "environment": "development", "userId": "alice", "tags": ["news"], "locale": "zh_Hans_CN", "timeZone": "Asia/Shanghai", "appVersion": "2.1",
            ]
            let first = try await api.call(.put, "/v1/devices/\(token(1))", key: app.key, json: device)
            #expect(first.status == 201)
            #expect(first["locale"] as? String == "zh-hans-cn")
            #expect(first["state"] as? String == "active")
            #expect(try await api.call(.put, "/v1/devices/\(token(1))", key: app.key, json: device).status == 200)
            _ = try await api.call(.put, "/v1/devices/\(token(2))", key: app.key, json: ["environment": "production", "userId": "alice", "kind": "voip"])
            let alice = try await api.call(.get, "/v1/devices?user=alice", key: app.key)
            #expect((alice["devices"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } == ["alert", "voip"])
            #expect((try await api.call(.get, "/v1/devices", key: app.key)["devices"] as? [Any])?.count == 2)
            let shown = try await api.call(.get, "/v1/devices/\(token(1).uppercased())", key: app.key)
            #expect(shown["timeZone"] as? String == "Asia/Shanghai")

            for (body, words) in [
                (["environment": "staging"], "production or development"),
                (["environment": "production", "kind": "watch"], "alert, voip, liveactivity, push-to-start"),
                (["environment": "production", "timeZone": "Mars/Olympus"], "IANA time zone"),
                (["environment": "production", "locale": "english!"], "language tag"),
                (["environment": "production", "tags": [""]], "1 to 64"),
                (["environment": "production", "encryptionKey": "c2hvcnQ="], "encryptionKey: the device's encryption key must be a Curve25519 public key"),
            ] as [([String: Any], String)] {
                let answer = try await api.call(.put, "/v1/devices/\(token(3))", key: app.key, json: body)
                #expect(answer.status == 400)
                #expect(answer.errorMessage.contains(words), "\(answer.errorMessage)")
            }
            let badToken = try await api.call(.put, "/v1/devices/xyz", key: app.key, json: ["environment": "production"])
            #expect(badToken.status == 400)
            #expect(badToken.errorMessage.hasPrefix("device token:"))
            #expect(try await api.call(.put, "/v1/devices/\(token(3))", key: admin, json: ["environment": "production"]).status == 403)
            #expect(try await api.call(.put, "/v1/devices/\(token(3))", json: ["environment": "production"]).status == 401)

            #expect(try await api.call(.delete, "/v1/devices/\(token(2))", key: app.key).status == 204)
            #expect(try await api.call(.delete, "/v1/devices/\(token(2))", key: app.key).status == 404)
            #expect(try await api.call(.get, "/v1/devices/\(token(2))", key: app.key).status == 404)
        }
    }

    @Test("a key of app A never reads, removes or sends to app B's devices")
    func crossAppIsolation() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        try await test.run { api in
            let a = try await api.createApp(admin: admin, bundleID: "com.example.a")
            let b = try await api.createApp(admin: admin, bundleID: "com.example.b")
            _ = try await api.call(.put, "/v1/devices/\(token(7))", key: a.key, json: ["environment": "development", "userId": "alice", "tags": ["vip"]])
            #expect(try await api.call(.get, "/v1/devices/\(token(7))", key: b.key).status == 404)
            #expect(try await api.call(.get, "/v1/devices/\(token(7))/deliveries", key: b.key).status == 404)
            #expect(try await api.call(.delete, "/v1/devices/\(token(7))", key: b.key).status == 404)
            #expect((try await api.call(.get, "/v1/devices?user=alice", key: b.key)["devices"] as? [Any])?.isEmpty == true)
            for target in [["tokens": [token(7)]], ["users": ["alice"]], ["tags": ["vip"]], ["all": true]] as [[String: Any]] {
                let sent = try await api.call(.post, "/v1/notifications", key: b.key, json: ["to": target, "message": ["body": "hi"]])
                #expect(sent.status == 202)
                #expect(sent["audienceSize"] as? Int == 0)
            }
            let fromA = try await api.call(.post, "/v1/notifications", key: a.key, json: ["to": ["all": true], "message": ["body": "hi"]])
            let id = try #require(fromA["id"] as? String)
            #expect(try await api.call(.get, "/v1/notifications/\(id)", key: b.key).status == 404)
            #expect(try await api.call(.get, "/v1/notifications/\(id)", key: a.key).status == 200)
            // The device still exists for A.
            #expect(try await api.call(.get, "/v1/devices/\(token(7))", key: a.key).status == 200)
        }
    }
}
