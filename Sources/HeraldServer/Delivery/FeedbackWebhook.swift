import Foundation
import HeraldStore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// Announces tokens that became invalid: a JSON POST to the app's feedback URL.
struct FeedbackWebhook: Sendable {
    /// The body: `{"app": …, "tokens": [{"token", "state", "reason", "timestamp"}]}`.
    struct Body: Encodable {
        struct Token: Encodable {
            var token: String
            var state: String
            var reason: String
            var timestamp: Date
        }
        var app: String
        var tokens: [Token]
    }

    let logger: Logger

    func announce(_ feedback: [TokenFeedback], app: StoredApp) async {
        guard let address = app.feedbackURL, let url = URL(string: address), let host = url.host, !feedback.isEmpty else { return }
        let body = Body(app: app.id, tokens: feedback.map { .init(token: $0.token, state: $0.state.rawValue, reason: $0.reason, timestamp: $0.timestamp) })
        do {
            let data = try JSONBody.encoder().encode(body)
            let status = try await post(host: host, port: url.port ?? 80, path: url.path.isEmpty ? "/" : url.path, body: Array(data))
            if !(200..<300).contains(status) {
                logger.warning("feedback webhook answered \(status)", metadata: ["app": "\(app.id)", "url": "\(address)"])
            }
        } catch {
            logger.warning("feedback webhook failed: \(error)", metadata: ["app": "\(app.id)", "url": "\(address)"])
        }
    }

    /// One POST on its own HTTP/1.1 connection; returns the status.
    private func post(host: String, port: Int, path: String, body: [UInt8]) async throws -> Int {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var headers = HTTPHeaders()
            headers.add(name: "host", value: "\(host):\(port)")
            headers.add(name: "content-type", value: "application/json")
            headers.add(name: "content-length", value: String(body.count))
            headers.add(name: "user-agent", value: "herald-serve")
            try await outbound.write(.head(HTTPRequestHead(version: .http1_1, method: .POST, uri: path, headers: headers)))
            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
            try await outbound.write(.end(nil))
            for try await part in inbound {
                if case .head(let head) = part { return Int(head.status.code) }
            }
            return 0
        }
    }
}
