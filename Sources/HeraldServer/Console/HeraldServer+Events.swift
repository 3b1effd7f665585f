import Foundation
import HTTPTypes
import HeraldStore
import Hummingbird
import NIOCore

extension HeraldServer {
    /// How long one event stream lasts at most (a browser's `EventSource` connects again).
    static let eventStreamLifetime = Duration.seconds(600)

    /// `GET /v1/notifications/{id}/events`: the notification's report as server-sent events
    /// (`event: report`), each time it changes, read once a second, until nothing is pending or
    /// ``eventStreamLifetime`` has passed. For the console's live progress. A browser's
    /// `EventSource` cannot send headers, so an admin session names its app in `?app=` here.
    func notificationEvents(_ request: Request, id: String) async throws -> Response {
        let appID = try await eventsApp(request)
        guard try await store.notification(appID: appID, id: id) != nil else { throw APIError.notFound("no notification '\(id)' in this app") }
        let store = store
        let timeout = configuration.storeTimeout
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                let started = ContinuousClock.now
                var last: Data?
                var quietSince = ContinuousClock.now
                while ContinuousClock.now - started < Self.eventStreamLifetime && !Task.isCancelled && !Task.isShuttingDownGracefully {
                    let view: ReportView?
                    do {
                        view = try await DeadlineRace.run(within: timeout, timeoutError: { APIError(.serviceUnavailable, code: "store_unavailable", "the store did not answer") }) {
                            guard let notification = try await store.notification(appID: appID, id: id) else { return nil }
                            return ReportView(notification: notification, counts: try await store.counts(notificationID: id))
                        }
                    } catch {
                        // The store is away: said once a second, and the stream goes on.
                        try await writer.write(ByteBuffer(string: "event: problem\ndata: {\"message\": \"the store does not answer; retrying\"}\n\n"))
                        try await Task.sleep(for: .seconds(1))
                        continue
                    }
                    guard let view else { break }
                    let data = try JSONBody.encoder().encode(view)
                    if data != last {
                        try await writer.write(ByteBuffer(string: "event: report\ndata: \(String(decoding: data, as: UTF8.self))\n\n"))
                        last = data
                        quietSince = .now
                    } else if ContinuousClock.now - quietSince > .seconds(15) {
                        // A comment now and then keeps proxies from closing a quiet stream.
                        try await writer.write(ByteBuffer(string: ": still sending\n\n"))
                        quietSince = .now
                    }
                    if view.pending == 0 { break }
                    try await Task.sleep(for: .seconds(1))
                }
                try await writer.finish(nil)
            }
        )
    }

    /// The app an event stream's caller acts on: as for every app route, or for an admin key
    /// the `app` query parameter.
    private func eventsApp(_ request: Request) async throws -> String {
        let (key, app) = try await keys.callerAndApp(request)
        if let app { return app }
        guard key.isAdmin, let named = request.uri.queryParameters["app"].map(String.init) else {
            throw APIError.forbidden("name the app in the Herald-App header, or in ?app= for an EventSource")
        }
        guard try await store.app(id: named) != nil else { throw APIError.notFound("no app '\(named)'") }
        return named
    }
}
