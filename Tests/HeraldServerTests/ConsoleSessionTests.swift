import Foundation
import HTTPTypes
import Testing
@testable import HeraldServer

/// The console's sign-in: a session cookie (HttpOnly, SameSite=Strict) for an API key, its CSRF
/// token on every call that changes something, same-origin only, signing out and revoking the
/// key end it; an admin session names its app in Herald-App.
@Suite struct ConsoleSessionTests {
    @Test("sign-in sets an HttpOnly SameSite cookie; calls need the CSRF token; sign-out and revocation end the session")
    func sessions() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        try await test.run { api in
            let unknown = try await api.call(.post, "/v1/session", json: ["key": "hk_app_nothing"])
            #expect(unknown.status == 401 && unknown.errorCode == "unknown_key", "\(unknown.text)")
            let typo = try await api.call(.post, "/v1/session", json: ["key": admin, "keys": "x"])
            #expect(typo.status == 400 && typo.errorMessage.contains("keys"), "\(typo.text)")

            let app = try await api.createApp(admin: admin)
            // Another site's form can post text, not JSON.
            var plain = HTTPFields()
            plain[.contentType] = "text/plain"
            let form = try await api.call(.post, "/v1/session", raw: #"{"key": "\#(app.key)"}"#, headers: plain)
            #expect(form.status == 415 && form.headers[.setCookie] == nil, "\(form.text)")
            let signedIn = try await api.call(.post, "/v1/session", json: ["key": app.key])
            #expect(signedIn.status == 201, "\(signedIn.text)")
            let cookie = try #require(signedIn.headers[.setCookie])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"), "\(cookie)")
            #expect(!cookie.contains(app.key), "the cookie holds a session secret, not the key")
            let session = String(try #require(cookie.split(separator: ";").first))
            let csrf = try #require(signedIn["csrfToken"] as? String)
            #expect(signedIn["app"] as? String == app.id && signedIn["admin"] as? Bool == false)
            #expect(!signedIn.text.contains(app.key) && !signedIn.text.contains(session.dropFirst("herald_session=".count)))

            var withCookie = HTTPFields()
            withCookie[.cookie] = session
            let current = try await api.call(.get, "/v1/session", headers: withCookie)
            #expect(current.status == 200 && current["csrfToken"] as? String == csrf)
            // Reading needs only the cookie.
            #expect(try await api.call(.get, "/v1/devices", headers: withCookie).status == 200)
            // Changing something needs the CSRF token too.
            let register = ["environment": "development"]
            let forged = try await api.call(.put, "/v1/devices/\(token(1))", json: register, headers: withCookie)
            #expect(forged.status == 403 && forged.errorCode == "csrf_token_missing", "\(forged.text)")
            var wrongToken = withCookie
            wrongToken[ConsoleSessions.csrfHeader] = String(csrf.reversed())
            #expect(try await api.call(.put, "/v1/devices/\(token(1))", json: register, headers: wrongToken).status == 403)
            var withToken = withCookie
            withToken[ConsoleSessions.csrfHeader] = csrf
            #expect(try await api.call(.put, "/v1/devices/\(token(1))", json: register, headers: withToken).status == 201)
            // Another site's page, even with the token, is refused by its Origin.
            var crossSite = withToken
            crossSite[.origin] = "https://evil.example"
            let crossed = try await api.call(.put, "/v1/devices/\(token(2))", json: register, headers: crossSite)
            #expect(crossed.status == 403 && crossed.errorCode == "cross_origin", "\(crossed.text)")
            // A proxy's Basic auth beside the cookie does not hide the session.
            var basic = withToken
            basic[.authorization] = "Basic dXNlcjpwYXNz"
            #expect(try await api.call(.get, "/v1/devices", headers: basic).status == 200)
            // Behind a proxy that says which host it forwarded, that host is this server's origin.
            var proxied = withToken
            proxied[.origin] = "https://herald.example"
            proxied[ConsoleSessions.forwardedHost] = "herald.example"
            #expect(try await api.call(.put, "/v1/devices/\(token(3))", json: register, headers: proxied).status == 201)
            // An app key's session acts for its app only, whatever Herald-App says.
            var otherNamed = withToken
            otherNamed[APIKeys.appHeader] = "app_someone_else"
            #expect(try await api.call(.get, "/v1/devices", headers: otherNamed).status == 403)
            let otherApp = try await api.createApp(admin: admin, bundleID: "com.example.other")
            #expect([403, 404].contains(try await api.call(.get, "/v1/apps/\(otherApp.id)", headers: withCookie).status))

            // Signing out needs the token to end the session; the cookie is cleared either way.
            let forgedOut = try await api.call(.delete, "/v1/session", headers: withCookie)
            #expect(forgedOut.status == 403 && (forgedOut.headers[.setCookie] ?? "").contains("Max-Age=0"))
            #expect(try await api.call(.get, "/v1/session", headers: withCookie).status == 200)
            let out = try await api.call(.delete, "/v1/session", headers: withToken)
            #expect(out.status == 204 && (out.headers[.setCookie] ?? "").contains("Max-Age=0"))
            let after = try await api.call(.get, "/v1/devices", headers: withCookie)
            #expect(after.status == 401 && after.errorCode == "session_ended", "\(after.text)")

            // An admin session names its app in Herald-App; revoking its key ends it.
            let adminKey = try await api.call(.post, "/v1/admin/keys", key: admin, json: [String: Any]())
            let second = try #require(adminKey["secret"] as? String)
            let secondID = try #require(adminKey["id"] as? String)
            let adminSession = try await api.call(.post, "/v1/session", json: ["key": second])
            var adminCookie = HTTPFields()
            adminCookie[.cookie] = String(try #require(adminSession.headers[.setCookie]?.split(separator: ";").first))
            let noApp = try await api.call(.get, "/v1/devices", headers: adminCookie)
            #expect(noApp.status == 403 && noApp.errorMessage.contains("Herald-App"), "\(noApp.text)")
            var named = adminCookie
            named[APIKeys.appHeader] = app.id
            let devices = try await api.call(.get, "/v1/devices", headers: named)
            #expect(devices.status == 200 && (devices["devices"] as? [Any])?.count == 2, "\(devices.text)")
            named[APIKeys.appHeader] = "app_missing"
            #expect(try await api.call(.get, "/v1/devices", headers: named).status == 404)
            #expect(try await api.call(.delete, "/v1/admin/keys/\(secondID)", key: admin).status == 204)
            #expect(try await api.call(.get, "/v1/session", headers: adminCookie).status == 401)
        }
    }

    @Test("POST /v1/lint: diagnostics with their path and fix, a syntax error's line and column, nothing sent")
    func lint() async throws {
        let test = try await TestServer.make()
        try await test.run { api in
            let app = try await api.createApp(admin: test.admin)
            let broken = try await api.call(.post, "/v1/lint", key: app.key, json: ["payloadText": "{\n  \"aps\": {\"alert\": \"Hi\",}\n}"])
            #expect(broken.status == 200, "\(broken.text)")
            let syntax = try #require((broken["diagnostics"] as? [[String: Any]])?.first)
            #expect(syntax["severity"] as? String == "error" && syntax["line"] as? Int == 2, "\(broken.text)")
            #expect(broken["errors"] as? Int == 1 && broken["payload"] == nil)

            let background = try await api.call(.post, "/v1/lint", key: app.key, json: ["payload": ["aps": ["content-available": 1]], "priority": 10])
            #expect(background.status == 200, "\(background.text)")
            let found = try #require(background["diagnostics"] as? [[String: Any]])
            #expect(found.contains { $0["header"] as? String == "apns-priority" && $0["fix"] != nil }, "\(background.text)")
            #expect(background["pushType"] as? String == "background" && background["topic"] as? String == "com.example.demo")

            let fine = try await api.call(.post, "/v1/lint", key: app.key, json: ["message": ["title": "Hello", "body": "World"]])
            #expect(fine["errors"] as? Int == 0 && (fine["payload"] as? String)?.contains("Hello") == true, "\(fine.text)")
            // The admin key lints without an app (a stand-in topic).
            #expect(try await api.call(.post, "/v1/lint", key: test.admin, json: ["message": ["body": "x"]]).status == 200)
            let unknown = try await api.call(.post, "/v1/lint", key: app.key, json: ["mesage": ["body": "x"]])
            #expect(unknown.status == 400 && unknown.errorMessage.contains("mesage"), "\(unknown.text)")
            // An expiration beyond what an integer holds is a 400, not a stopped process.
            for path in ["/v1/lint", "/v1/notifications"] {
                let far = try await api.call(.post, path, key: app.key, json: ["to": ["all": true], "message": ["body": "x"], "expiration": Int64.max].filter { path == "/v1/notifications" || $0.key != "to" })
                #expect(far.status == 400 && far.errorMessage.contains("expiration"), "\(path): \(far.text)")
            }
            #expect(try await api.call(.get, "/health").status == 200)
            // Nothing was sent.
            let list = try await api.call(.get, "/v1/notifications", key: app.key)
            #expect((list["notifications"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("/v1/sandbox: the in-process sandbox's devices, received notifications, faults and counters, for the admin only")
    func sandbox() async throws {
        let test = try await TestServer.make()
        try await test.run { api in
            let app = try await api.createApp(admin: test.admin)
            try await api.call(.put, "/v1/devices/\(token(5))", key: app.key, json: ["environment": "development"])
            let sent = try await api.call(.post, "/v1/notifications?wait=true", key: app.key, json: ["to": ["tokens": [token(5)]], "message": ["body": "hi"]])
            #expect(sent.status == 200, "\(sent.text)")
            // payloadText goes as written: key order and a number beyond a double's precision kept.
            let text = #"{"z":1,"aps":{"alert":"exact"},"a":12345678901234567890}"#
            let exact = try await api.call(.post, "/v1/notifications?wait=true", key: app.key, json: ["to": ["tokens": [token(5)]], "payloadText": text])
            #expect(exact.status == 200, "\(exact.text)")
            let got = try await api.call(.get, "/v1/sandbox/devices/\(token(5))/notifications", key: test.admin)
            #expect(got.text.contains(#"{\"z\":1,\"aps\":{\"alert\":\"exact\"},\"a\":12345678901234567890}"#), "\(got.text)")
            // So does a payload written as a JSON object in the body, and a language's payload.
            let object = #"{"to":{"tokens":["\#(token(5))"]},"payload":{"z":2,"aps":{"alert":"object"},"a":12345678901234567891}}"#
            #expect(try await api.call(.post, "/v1/notifications?wait=true", key: app.key, raw: object).status == 200)
            let written = try await api.call(.get, "/v1/sandbox/devices/\(token(5))/notifications", key: test.admin)
            #expect(written.text.contains(#"{\"z\":2,\"aps\":{\"alert\":\"object\"},\"a\":12345678901234567891}"#), "\(written.text)")
            let linted = try await api.call(.post, "/v1/lint", key: app.key, raw: #"{"payload":{"z":2,"aps":{"alert":"lint"},"a":0.10}}"#)
            #expect(linted["payload"] as? String == #"{"z":2,"aps":{"alert":"lint"},"a":0.10}"#, "\(linted.text)")
            try await api.call(.put, "/v1/devices/\(token(6))", key: app.key, json: ["environment": "development", "locale": "en"])
            let local = #"{"to":{"tokens":["\#(token(6))"]},"message":{"body":"x"},"locales":{"en":{"payload":{"y":3,"aps":{"alert":"local"},"b":0.10}}}}"#
            #expect(try await api.call(.post, "/v1/notifications?wait=true", key: app.key, raw: local).status == 200)
            let localized = try await api.call(.get, "/v1/sandbox/devices/\(token(6))/notifications", key: test.admin)
            #expect(localized.text.contains(#"{\"y\":3,\"aps\":{\"alert\":\"local\"},\"b\":0.10}"#), "\(localized.text)")
            let both = try await api.call(.post, "/v1/notifications", key: app.key, json: ["to": ["all": true], "payloadText": text, "message": ["body": "x"]])
            #expect(both.status == 400, "\(both.text)")
            #expect(try await api.call(.get, "/v1/sandbox/devices", key: app.key).status == 403)
            let devices = try await api.call(.get, "/v1/sandbox/devices", key: test.admin)
            #expect(devices.status == 200 && devices.text.contains(token(5)), "\(devices.text)")
            let received = try await api.call(.get, "/v1/sandbox/devices/\(token(5))/notifications", key: test.admin)
            #expect(received.status == 200 && received.text.contains("hi"), "\(received.text)")
            #expect(try await api.call(.get, "/v1/sandbox/devices/zz..%2F", key: test.admin).status == 400)
            let faults = try await api.call(.put, "/v1/sandbox/faults", key: test.admin, json: ["rates": ["503": 0.5], "latencyMilliseconds": 5])
            #expect(faults.status == 200, "\(faults.text)")
            let typo = try await api.call(.put, "/v1/sandbox/faults", key: test.admin, json: ["latency": 5])
            #expect(typo.status == 400 && typo.text.contains("latencyMilliseconds"), "\(typo.text)")
            #expect(try await api.call(.delete, "/v1/sandbox/faults", key: test.admin).status == 200)
            // Unregistered in the sandbox: the next send gets 410 and the App Server marks the token.
            #expect(try await api.call(.delete, "/v1/sandbox/devices/\(token(5))", key: test.admin).status == 200)
            let again = try await api.call(.post, "/v1/notifications?wait=true", key: app.key, json: ["to": ["tokens": [token(5)]], "message": ["body": "again"]])
            #expect((again["report"] as? [String: Any])?["failed"] as? Int == 1, "\(again.text)")
            let device = try await api.call(.get, "/v1/devices/\(token(5))", key: app.key)
            #expect(device["state"] as? String == "unregistered", "\(device.text)")
            #expect(try await api.call(.get, "/v1/sandbox/counters", key: test.admin).status == 200)
        }
    }

    @Test("GET /v1/notifications/{id}/events streams the report as it changes and ends when nothing is pending")
    func events() async throws {
        let test = try await TestServer.make()
        try await test.run { api in
            let app = try await api.createApp(admin: test.admin, extra: ["rateLimit": 4])
            for number in 10..<16 { try await api.call(.put, "/v1/devices/\(token(number))", key: app.key, json: ["environment": "development"]) }
            let sent = try await api.call(.post, "/v1/notifications", key: app.key, json: ["to": ["all": true], "message": ["body": "six at four a second"]])
            let id = try #require(sent["id"] as? String)
            let stream = try await api.call(.get, "/v1/notifications/\(id)/events", key: app.key)
            #expect(stream.status == 200 && stream.headers[.contentType]?.hasPrefix("text/event-stream") == true)
            let reports = stream.text.components(separatedBy: "event: report\ndata: ").dropFirst()
            #expect(reports.count >= 2, "\(stream.text)")
            #expect(reports.last?.contains(#""pending":0"#) == true && reports.last?.contains(#""sent":6"#) == true, "\(stream.text)")
            // An admin key names the app in ?app= (an EventSource sends no headers); another app's key sees nothing.
            let admin = try await api.call(.get, "/v1/notifications/\(id)/events?app=\(app.id)", key: test.admin)
            #expect(admin.status == 200 && admin.text.contains(#""pending":0"#))
            let other = try await api.createApp(admin: test.admin, bundleID: "com.example.other")
            #expect(try await api.call(.get, "/v1/notifications/\(id)/events", key: other.key).status == 404)
        }
    }

    @Test("the console's page and files are served with a content security policy; nothing else is")
    func assets() async throws {
        let test = try await TestServer.make()
        try await test.run { api in
            let page = try await api.call(.get, "/")
            #expect(page.status == 200 && page.text.contains("/console/console.js"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            for file in ["console.js", "console.css", "icon.svg"] {
                #expect(try await api.call(.get, "/console/\(file)").status == 200, "\(file)")
            }
            #expect(try await api.call(.get, "/console/..%2FHeraldServer.swift").status == 404)
            #expect(try await api.call(.get, "/console/secrets.txt").status == 404)
        }
    }
}
