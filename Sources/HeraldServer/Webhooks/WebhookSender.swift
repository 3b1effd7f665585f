import AsyncHTTPClient
import Foundation
import HeraldCore
import HeraldStore
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Delivers the webhook outbox: events stored by ``announce(_:app:)`` are POSTed to the app's
/// URL (https with the system's roots, or http; the query string kept), signed
/// (``WebhookSignature``), and retried with back-off until the receiver answers 2xx or the event
/// is older than the retry schedule allows. The outbox is in the store, so events survive
/// restarts; leases keep each event to one node at a time.
final class WebhookSender: Service, Sendable {
    /// `{"event": "tokens.invalidated", "app": …, "tokens": [{"token", "state", "reason", "timestamp"}]}`.
    struct Body: Encodable {
        struct Token: Encodable {
            var token: String
            var state: String
            var reason: String
            var timestamp: Date
        }
        var event = "tokens.invalidated"
        var app: String
        var tokens: [Token]
    }

    /// Answers are read up to this size, then dropped.
    static let responseLimit = 64 * 1024

    private let store: any HeraldStore
    private let configuration: ServerConfiguration
    private let client: HTTPClient
    private let wake = WakeSignal()
    private var logger: Logger { configuration.logger }

    init(store: any HeraldStore, configuration: ServerConfiguration) {
        self.store = store
        self.configuration = configuration
        var settings = HTTPClient.Configuration()
        settings.timeout = .init(connect: .seconds(5), read: .seconds(10))
        settings.redirectConfiguration = .disallow
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: settings)
    }

    /// Puts an event for the app's webhook in the outbox.
    func announce(_ feedback: [TokenFeedback], app: StoredApp) async throws {
        guard app.feedbackURL != nil, !feedback.isEmpty else { return }
        let body = Body(app: app.id, tokens: feedback.map { .init(token: $0.token, state: $0.state.rawValue, reason: $0.reason, timestamp: $0.timestamp) })
        let text = String(decoding: try JSONBody.encoder().encode(body), as: UTF8.self)
        try await store.enqueueWebhookEvent(appID: app.id, body: text, now: configuration.clock.now)
        wake.signal()
    }

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let events = try await store.claimWebhookEvents(owner: configuration.nodeID, now: configuration.clock.now, lease: 60, limit: 20)
                await withTaskGroup(of: Void.self) { group in
                    for event in events { group.addTask { await self.deliver(event) } }
                }
                if events.isEmpty {
                    await cancelWhenGracefulShutdown { await self.wake.wait(timeout: .milliseconds(250)) }
                }
            } catch {
                logger.warning("webhook outbox: \(error)")
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
            }
        }
        try? await client.shutdown()
    }

    /// Sends one event; finishes it, or schedules its retry.
    private func deliver(_ event: WebhookEvent) async {
        let now = configuration.clock.now
        let error: String
        do {
            guard let app = try await store.app(id: event.appID), let url = app.feedbackURL else {
                try await store.finishWebhookEvent(id: event.id)
                return
            }
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "User-Agent", value: "herald")
            request.headers.add(name: "Herald-Event-Id", value: "\(event.id)")
            if let secret = app.webhookSecret {
                request.headers.add(name: WebhookSignature.headerName, value: WebhookSignature(body: Data(event.body.utf8), secret: secret, time: now).headerValue)
            }
            request.body = .bytes(ByteBuffer(string: event.body))
            let response = try await client.execute(request, timeout: .seconds(15))
            _ = try? await response.body.collect(upTo: Self.responseLimit)
            if (200..<300).contains(response.status.code) {
                try await store.finishWebhookEvent(id: event.id)
                return
            }
            error = "answered \(response.status.code)"
        } catch let failure {
            error = "\(failure)"
        }
        let retry = configuration.webhookRetry
        if let next = retry.nextAttempt(after: event.attempts, queuedAt: event.createdAt, expiration: .none, now: now, jitter: Double.random(in: 0...1)) {
            logger.warning("webhook not delivered; it is tried again", metadata: [
                "app": "\(event.appID)", "event": "\(event.id)", "attempt": "\(event.attempts)", "error": "\(error)", "next": "\(next)",
            ])
            try? await store.retryWebhookEvent(id: event.id, at: next, error: error)
        } else {
            logger.error("webhook given up after \(event.attempts) attempts", metadata: ["app": "\(event.appID)", "event": "\(event.id)", "error": "\(error)"])
            try? await store.finishWebhookEvent(id: event.id)
        }
    }
}
