import Crypto
import Foundation
import HTTPTypes
import HeraldCore
import Hummingbird
import Testing
@testable import HeraldServer

@Suite("API: operations, apps and keys")
struct AppAPITests {
    @Test("/openapi.json lists every route of the router and no other; /health, /ready and /metrics answer")
    func openAPIMatchesRoutes() async throws {
        let test = try await TestServer.make()
        let routes = Set(test.server.router().routes.map { route in
            let path = route.path.description.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
            return "\(route.method.rawValue.lowercased()) /\(path)"
        })
        try await test.run { api in
            let answer = try await api.call(.get, "/openapi.json")
            #expect(answer.status == 200)
            #expect(answer["openapi"] as? String == "3.1.0")
            let paths = try #require(answer["paths"] as? [String: [String: Any]])
            let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0) \(path)" } })
            #expect(routes == documented, "undocumented: \(routes.subtracting(documented).sorted()); not routes: \(documented.subtracting(routes).sorted())")
            #expect(routes.count == 55)

            let health = try await api.call(.get, "/health")
            #expect(health.status == 200)
            #expect(health["status"] as? String == "ok")
            let ready = try await api.call(.get, "/ready")
            #expect(ready.status == 200, "\(ready.text)")
            #expect(ready["ready"] as? Bool == true)
            #expect((ready["store"] as? [String: Any])?["ok"] as? Bool == true)
            let metrics = try await api.call(.get, "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.text.contains("herald_queue_depth 0"))
            #expect(metrics.text.contains("# TYPE herald_delivery_latency_seconds histogram"))
            let missing = try await api.call(.get, "/v1/nothing")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "not_found")
        }
    }

    @Test("apps: admin only, validated, visible to their own key only; keys are created, listed and revoked")
    func apps() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        try await test.run { api in
            #expect(try await api.call(.post, "/v1/apps", json: ["name": "A", "bundleId": "com.a"]).status == 401)
            #expect(try await api.call(.post, "/v1/apps", key: "hk_app_wrong", json: ["name": "A", "bundleId": "com.a"]).status == 401)
            let badBundle = try await api.call(.post, "/v1/apps", key: admin, json: ["name": "A", "bundleId": "com example"])
            #expect(badBundle.status == 400)
            #expect(badBundle.errorMessage.contains("bundle id"))
            #expect(try await api.call(.post, "/v1/apps", key: admin, json: ["bundleId": "com.a"]).status == 400)
            #expect(try await api.call(.post, "/v1/apps", key: admin, raw: "{not json").errorMessage == "the body is not valid JSON")
            let wrongType = try await api.call(.post, "/v1/apps", key: admin, json: ["name": 5, "bundleId": "com.a"])
            #expect(wrongType.errorMessage == "field 'name' must be a string")
            let badLimit = try await api.call(.post, "/v1/apps", key: admin, json: ["name": "A", "bundleId": "com.a", "rateLimit": 0])
            #expect(badLimit.status == 400)

            let a = try await api.createApp(admin: admin, bundleID: "com.example.a")
            let b = try await api.createApp(admin: admin, bundleID: "com.example.b")
            #expect(try await api.call(.post, "/v1/apps", key: a.key, json: ["name": "A", "bundleId": "com.a"]).status == 403)
            #expect(try await api.call(.get, "/v1/apps", key: a.key).status == 403)
            let list = try await api.call(.get, "/v1/apps", key: admin)
            #expect((list["apps"] as? [[String: Any]])?.count == 2)
            #expect(try await api.call(.get, "/v1/apps/\(a.id)", key: a.key).status == 200)
            #expect(try await api.call(.get, "/v1/apps/\(a.id)", key: b.key).status == 404)
            #expect(try await api.call(.get, "/v1/apps/app_none", key: admin).status == 404)

            // Credentials: a real .p8 is accepted and never shown; a broken one is refused.
            let pem = P256KeyPEM.make()
            let patched = try await api.call(.patch, "/v1/apps/\(a.id)", key: admin, json: [
                "teamId": "TEAM123456", "credentials": ["production": ["p8": pem, "keyId": "KEY1234567"]], "rateLimit": 500,
            ])
            #expect(patched.status == 200)
            #expect((patched["credentials"] as? [String: String]) == ["production": "p8 key KEY1234567", "development": "none"])
            // Only an app without any Apple credentials goes to the sandbox: this one's development
            // notifications would fail with NoCredentials, and the app says so.
            #expect((patched["destinations"] as? [String: String]) == ["production": "apple", "development": "none"])
            #expect(!patched.text.contains("PRIVATE KEY"))
            let broken = try await api.call(.patch, "/v1/apps/\(a.id)", key: admin, json: ["credentials": ["development": ["p8": "nonsense", "keyId": "KEY1234567"]]])
            #expect(broken.status == 400)
            #expect(broken.errorMessage.contains("credentials.development.p8"))
            let both = try await api.call(.patch, "/v1/apps/\(a.id)", key: admin, json: ["credentials": ["development": ["p8": pem, "p12": "AAAA"]]])
            #expect(both.errorMessage.contains("exactly one of p8"))
            let badEnvironment = try await api.call(.patch, "/v1/apps/\(a.id)", key: admin, json: ["credentials": ["staging": NSNull()]])
            #expect(badEnvironment.errorMessage.contains("production and development"))
            #expect(try await api.call(.patch, "/v1/apps/\(a.id)", key: admin, json: ["credentials": ["production": NSNull()]]).status == 200)

            // null clears what may be absent; a required field cannot be null; a typo is named.
            let limited = try await api.call(.patch, "/v1/apps/\(a.id)", key: admin, json: ["rateLimit": 50, "feedbackUrl": "https://example.com/feedback"])
            #expect(limited["rateLimit"] as? Int == 50 && limited["feedbackUrl"] as? String == "https://example.com/feedback", "\(limited.text)")
            let cleared = try await api.call(.patch, "/v1/apps/\(a.id)", key: admin, json: ["rateLimit": NSNull(), "feedbackUrl": NSNull()])
            #expect(cleared.status == 200 && cleared["rateLimit"] == nil && cleared["feedbackUrl"] == nil, "\(cleared.text)")
            let unnamed = try await api.call(.patch, "/v1/apps/\(a.id)", key: admin, json: ["name": NSNull()])
            #expect(unnamed.status == 400 && unnamed.errorMessage.contains("name cannot be null"), "\(unnamed.errorMessage)")
            let typo = try await api.call(.patch, "/v1/apps/\(a.id)", key: admin, json: ["ratelimit": 5])
            #expect(typo.status == 400 && typo.errorMessage.contains("unknown field 'ratelimit'") && typo.errorMessage.contains("rateLimit"), "\(typo.errorMessage)")
            let credentialTypo = try await api.call(.patch, "/v1/apps/\(a.id)", key: admin, json: ["credentials": ["production": ["p8": pem, "keyID": "KEY1234567"]]])
            #expect(credentialTypo.status == 400 && credentialTypo.errorMessage.contains("unknown field 'credentials.production.keyID'"), "\(credentialTypo.errorMessage)")
            let deviceTypo = try await api.call(.put, "/v1/devices/\(token(40))", key: a.key, json: ["environment": "development", "userID": "li"])
            #expect(deviceTypo.status == 400 && deviceTypo.errorMessage.contains("unknown field 'userID'") && deviceTypo.errorMessage.contains("userId"), "\(deviceTypo.errorMessage)")
            let targetTypo = try await api.call(.post, "/v1/notifications", key: a.key, json: ["to": ["user": ["li"]], "message": ["body": "x"]])
            #expect(targetTypo.status == 400 && targetTypo.errorMessage.contains("unknown field 'to.user'"), "\(targetTypo.errorMessage)")
            let localeTypo = try await api.call(.post, "/v1/notifications", key: a.key, json: [
                "to": ["all": true], "message": ["body": "x"], "locales": ["zh-Hans": ["message": ["body": "x", "titel": "y"]]],
            ])
            #expect(localeTypo.status == 400 && localeTypo.errorMessage.contains("unknown field 'locales.zh-Hans.message.titel'"), "\(localeTypo.errorMessage)")

            // Keys.
            let created = try await api.call(.post, "/v1/apps/\(a.id)/keys", key: admin)
            #expect(created.status == 201)
            let secondKey = try #require(created["secret"] as? String)
            let keyID = try #require(created["id"] as? String)
            #expect(try await api.call(.get, "/v1/apps/\(a.id)", key: secondKey).status == 200)
            let keys = try await api.call(.get, "/v1/apps/\(a.id)/keys", key: admin)
            #expect((keys["keys"] as? [[String: Any]])?.count == 2)
            #expect(!keys.text.contains("hk_app_"))
            #expect(try await api.call(.delete, "/v1/apps/\(b.id)/keys/\(keyID)", key: admin).status == 404)
            #expect(try await api.call(.delete, "/v1/apps/\(a.id)/keys/\(keyID)", key: admin).status == 204)
            #expect(try await api.call(.get, "/v1/apps/\(a.id)", key: secondKey).status == 401)
            #expect(try await api.call(.post, "/v1/apps/app_none/keys", key: admin).status == 404)
        }
    }

    @Test("request bodies above the limit are refused with 413")
    func bodyLimit() async throws {
        let test = try await TestServer.make(bodyLimit: 2048)
        let admin = test.admin
        try await test.run { api in
            let answer = try await api.call(.post, "/v1/apps", key: admin, json: ["name": String(repeating: "x", count: 5000), "bundleId": "com.a"])
            #expect(answer.status == 413)
            #expect(answer.errorCode == "body_too_large")
        }
    }
}

/// A fresh P-256 private key in PEM, as a .p8 file holds it.
enum P256KeyPEM {
    static func make() -> String {
        P256.Signing.PrivateKey().pemRepresentation
    }
}
