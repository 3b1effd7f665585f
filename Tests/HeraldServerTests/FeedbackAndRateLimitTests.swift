import Foundation
import HeraldSandbox
import HeraldCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing
@testable import HeraldServer

/// The feedback webhook (a real HTTP receiver on loopback) and the per-app rate limit.
@Suite struct FeedbackAndRateLimitTests {
    @Test("tokens that became invalid are POSTed to the app's feedback URL, once")
    func feedbackWebhook() async throws {
        let receiver = try await WebhookReceiver.start()
        defer { receiver.stop() }
        let test = try await TestServer.make()
        let admin = test.admin
        let sandbox = test.sandbox
        try await test.run { api in
            let app = try await api.createApp(admin: admin, extra: ["feedbackUrl": "http://127.0.0.1:\(receiver.port)/herald/feedback"])
            for number in 1...3 { _ = try await api.call(.put, "/v1/devices/\(token(number))", key: app.key, json: ["environment": "development"]) }
            sandbox.state.setAutoAccept(false)
            _ = try sandbox.state.register(token: DeviceToken(parsing: token(1)), topic: "com.example.demo", environment: .development)
            _ = try sandbox.state.register(token: DeviceToken(parsing: token(2)), topic: "com.example.demo", environment: .development)
            _ = try sandbox.state.unregister(token: token(2))
            _ = try sandbox.state.register(token: DeviceToken(parsing: token(3)), topic: "com.other.app", environment: .development)

            let answer = try await api.call(.post, "/v1/notifications?wait=true", key: app.key, json: ["to": ["all": true], "message": ["body": "hi"]])
            #expect((answer["report"] as? [String: Any])?["sent"] as? Int == 1, "\(answer.text)")
            let posts = try await receiver.posts(atLeast: 1)
            #expect(posts.count == 1)
            let post = try #require(posts.first)
            #expect(post.path == "/herald/feedback")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(post.body.utf8)) as? [String: Any])
            #expect(body["app"] as? String == app.id)
            let tokens = try #require(body["tokens"] as? [[String: Any]]).sorted { ($0["token"] as? String ?? "") < ($1["token"] as? String ?? "") }
            #expect(tokens.map { $0["token"] as? String } == [token(2), token(3)])
            #expect(tokens.map { $0["state"] as? String } == ["unregistered", "invalid"])
            #expect(tokens.map { $0["reason"] as? String } == ["Unregistered", "DeviceTokenNotForTopic"])
            #expect(tokens.allSatisfy { $0["timestamp"] is String })

            // The invalid tokens are out of the next audience: nothing more is announced.
            let next = try await api.call(.post, "/v1/notifications?wait=true", key: app.key, json: ["to": ["all": true], "message": ["body": "again"]])
            #expect((next["report"] as? [String: Any])?["sent"] as? Int == 1)
            try await Task.sleep(for: .milliseconds(300))
            #expect(receiver.received.count == 1)
        }
    }

    @Test("webhooks are signed with the app's secret, keep their query string, and are retried until the receiver takes them")
    func signedRetriedWebhook() async throws {
        let receiver = try await WebhookReceiver.start(failing: 2)
        defer { receiver.stop() }
        let test = try await TestServer.make()
        let admin = test.admin
        let clock = test.clock
        let sandbox = test.sandbox
        try await test.run { api in
            // https is accepted as well as http; a URL of any other kind is refused.
            let refused = try await api.call(
                .post, "/v1/apps", key: admin, json: ["name": "Bad", "bundleId": "com.example.bad", "feedbackUrl": "ftp://127.0.0.1/x"]
            )
            #expect(refused.status == 400 && refused.errorMessage.contains("https://"), "\(refused.text)")
            let secure = try await api.call(
                .post, "/v1/apps", key: admin, json: ["name": "Secure", "bundleId": "com.example.secure", "feedbackUrl": "https://hooks.example.com/herald"]
            )
            #expect(secure.status == 201, "\(secure.text)")

            let created = try await api.call(
                .post, "/v1/apps", key: admin,
                json: ["name": "Demo", "bundleId": "com.example.demo", "feedbackUrl": "http://127.0.0.1:\(receiver.port)/hooks/apns?source=herald&v=2"]
            )
            let app = try #require(created["app"] as? [String: Any])
            let secret = try #require(app["webhookSecret"] as? String)
            let key = try #require((created["apiKey"] as? [String: Any])?["secret"] as? String)
            // The secret is shown once: reading the app again does not show it.
            let shown = try await api.call(.get, "/v1/apps/\(app["id"] as! String)", key: admin)
            #expect(shown["webhookSecret"] == nil)

            _ = try await api.call(.put, "/v1/devices/\(token(1))", key: key, json: ["environment": "development"])
            sandbox.state.setAutoAccept(false)
            _ = try sandbox.state.register(token: DeviceToken(parsing: token(1)), topic: "com.example.demo", environment: .development)
            _ = try sandbox.state.unregister(token: token(1))
            let answer = try await api.call(.post, "/v1/notifications?wait=true", key: key, json: ["to": ["all": true], "message": ["body": "hi"]])
            #expect((answer["report"] as? [String: Any])?["failed"] as? Int == 1, "\(answer.text)")

            // Two 503s, then taken: three posts of the same event, each signed. The server's clock
            // is moved on for the back-off (1 s, then 2 s at most).
            let deadline = ContinuousClock.now + .seconds(20)
            while receiver.received.count < 3 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                clock.advance(by: 0.5)
            }
            let posts = receiver.received
            #expect(posts.map(\.status) == [503, 503, 204])
            #expect(Set(posts.map(\.eventID)).count == 1)
            for post in posts {
                #expect(post.path == "/hooks/apns" && post.query == "source=herald&v=2", "\(post.path) \(post.query ?? "")")
                let signature = try #require(post.signature)
                #expect(WebhookSignature.verify(header: signature, body: Data(post.body.utf8), secret: secret, now: Date()), "\(signature)")
                #expect(!WebhookSignature.verify(header: signature, body: Data(post.body.utf8), secret: "whsec_other", now: Date()))
                #expect(!WebhookSignature.verify(header: signature, body: Data((post.body + " ").utf8), secret: secret, now: Date()))
            }
            let body = try #require(try JSONSerialization.jsonObject(with: Data(posts[0].body.utf8)) as? [String: Any])
            #expect(body["event"] as? String == "tokens.invalidated")
            try await Task.sleep(for: .milliseconds(500))
            #expect(receiver.received.count == 3)

            // Rotation: a new secret, shown once.
            let rotated = try await api.call(.post, "/v1/apps/\(app["id"] as! String)/webhook-secret", key: admin)
            #expect(rotated.status == 201)
            #expect((rotated["webhookSecret"] as? String).map { $0.hasPrefix("whsec_") && $0 != secret } == true)
        }
    }

    @Test("an app's rate limit spaces its sends: 120 at 40 a second take at least 2 s; without a limit well under that")
    func rateLimit() async throws {
        let test = try await TestServer.make()
        let admin = test.admin
        let sandbox = test.sandbox
        try await test.run { api in
            let limited = try await api.createApp(admin: admin, bundleID: "com.example.limited", extra: ["rateLimit": 40])
            let free = try await api.createApp(admin: admin, bundleID: "com.example.free")
            for number in 1...120 {
                _ = try await api.call(.put, "/v1/devices/\(token(number))", key: limited.key, json: ["environment": "development"])
                _ = try await api.call(.put, "/v1/devices/\(token(1000 + number))", key: free.key, json: ["environment": "development"])
            }
            let freeSeconds = try await timeBroadcast(api, key: free.key)
            let limitedSeconds = try await timeBroadcast(api, key: limited.key)
            // A one-second burst of 40, then 80 more at 40 a second.
            #expect(limitedSeconds >= 1.9, "\(limitedSeconds) s with the limit")
            #expect(limitedSeconds < 10, "\(limitedSeconds) s with the limit")
            #expect(freeSeconds < limitedSeconds / 2, "\(freeSeconds) s without, \(limitedSeconds) s with the limit")
            let counts = (1...120).map { sandbox.state.received(token: token($0)).count }
            #expect(counts.allSatisfy { $0 == 1 }, "\(counts)")
        }
    }

    private func timeBroadcast(_ api: APIClient, key: String) async throws -> Double {
        let start = ContinuousClock.now
        let sent = try await api.call(.post, "/v1/notifications", key: key, json: ["to": ["all": true], "message": ["body": "paced"]])
        let id = try #require(sent["id"] as? String)
        var report = try await api.call(.get, "/v1/notifications/\(id)", key: key)
        while report["pending"] as? Int != 0 {
            try await Task.sleep(for: .milliseconds(20))
            report = try await api.call(.get, "/v1/notifications/\(id)", key: key)
        }
        #expect(report["sent"] as? Int == 120, "\(report.text)")
        return (ContinuousClock.now - start).inSeconds
    }
}

/// A webhook endpoint on loopback that keeps what it is sent.
struct WebhookReceiver: Sendable {
    struct Post: Sendable {
        var path: String
        var query: String?
        var signature: String?
        var eventID: String?
        var body: String
        /// What the receiver answered.
        var status: Int
    }

    let port: Int
    private let log: PostLog
    private let task: Task<Void, any Error>

    /// The posts, shared by the route that adds them and the test that reads them.
    private final class PostLog: Sendable {
        let posts = Mutex<[Post]>([])
    }

    /// A receiver that answers 503 to its first `failing` posts (a receiver that is down), then 204.
    static func start(failing: Int = 0) async throws -> WebhookReceiver {
        let log = PostLog()
        let router = Router()
        router.post("**") { request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 1 << 20)
            return log.posts.withLock { posts in
                let status: HTTPResponse.Status = posts.count < failing ? .serviceUnavailable : .noContent
                posts.append(Post(
                    path: request.uri.path, query: request.uri.query, signature: request.headers[HTTPField.Name("Herald-Signature")!],
                    eventID: request.headers[HTTPField.Name("Herald-Event-Id")!], body: String(buffer: body), status: Int(status.code)
                ))
                return status
            }
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "webhook.receiver")
        logger.logLevel = .critical  // stopping by cancellation logs errors that mean nothing here
        let application = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger
        )
        let task = Task { try await application.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw TestFailure("the webhook receiver did not start") }
        return WebhookReceiver(port: port, log: log, task: task)
    }

    var received: [Post] { log.posts.withLock { $0 } }

    /// Waits (up to 10 s) until at least `count` posts arrived.
    func posts(atLeast count: Int) async throws -> [Post] {
        let deadline = ContinuousClock.now + .seconds(10)
        while received.count < count && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return received
    }

    func stop() {
        task.cancel()
    }
}
