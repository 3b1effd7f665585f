import Foundation
import HeraldStore
import HeraldHTTP1
import Logging

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
            let status = try await HTTP1Exchange.send(
                method: .POST, host: host, port: url.port ?? 80, path: url.path.isEmpty ? "/" : url.path, body: Array(data)
            ).status
            if !(200..<300).contains(status) {
                logger.warning("feedback webhook answered \(status)", metadata: ["app": "\(app.id)", "url": "\(address)"])
            }
        } catch {
            logger.warning("feedback webhook failed: \(error)", metadata: ["app": "\(app.id)", "url": "\(address)"])
        }
    }
}
