import Foundation
import HeraldCore
import HeraldStore
import Hummingbird

/// `POST /v1/lint`: a send's content checked without sending it, as the console's Compose page
/// does while one types. The fields are those of `POST /v1/notifications` without `to`; the
/// payload may also come as text (`payloadText`), so that a JSON syntax error is found with its
/// line and column.
struct LintRequest: Codable, Sendable, KnownFields {
    var payloadText: String?
    var payload: Payload?
    var message: SendRequest.MessageFields?
    var locales: [String: SendRequest.Content]?
    var pushType: String?
    var priority: Int?
    var expiration: Int64?
    var collapseId: String?

    static var fields: [String: FieldShape] { [
        "payloadText": .value, "payload": .value, "message": .object(SendRequest.MessageFields.self), "locales": .objects(SendRequest.Content.self),
        "pushType": .value, "priority": .value, "expiration": .value, "collapseId": .value,
    ] }
}

/// What `POST /v1/lint` found, and what would be sent.
struct LintView: Encodable, Sendable {
    /// Errors first, then warnings and notes, each with where it is and how to fix it.
    var diagnostics: [DiagnosticView]
    var errors: Int
    var warnings: Int
    /// The payload APNs would get (absent when it cannot be built).
    var payload: String?
    /// The push type, priority and topic it would go with.
    var pushType: String?
    var priority: Int?
    var topic: String?
}

extension HeraldServer {
    func lint(_ request: Request) async throws -> Response {
        let appID = try await keys.optionalApp(request)
        let input = try await JSONBody.decode(LintRequest.self, from: request, limit: configuration.bodyLimit)
        // The topic is the app's bundle id; without an app, a stand-in that lint accepts.
        let app = try await appID.asyncMap { try await store.app(id: $0) } ?? nil
        let lintedApp = app ?? StoredApp(id: "lint", name: "lint", bundleID: "com.example.app", createdAt: configuration.clock.now)
        if let text = input.payloadText, (try? Payload(decoding: Array(text.utf8))) == nil {
            // Not a payload at all: lint reads the text and says where it goes wrong.
            let diagnostics = linter.lint(payload: Array(text.utf8)).map { DiagnosticView($0, variant: nil) }
            return try JSONBody.response(Self.lintView(diagnostics, payload: nil, headers: nil))
        }
        // The same text a send with payloadText sends.
        let send = SendRequest(
            to: .init(all: true), payload: input.payload, payloadText: input.payloadText, message: input.message, locales: input.locales, pushType: input.pushType,
            priority: input.priority, expiration: input.expiration, collapseId: input.collapseId
        )
        let (message, diagnostics) = try send.outgoing(app: lintedApp, linter: linter, refusing: false)
        return try JSONBody.response(Self.lintView(diagnostics, payload: message.fallback, headers: message.headers))
    }

    private static func lintView(_ diagnostics: [DiagnosticView], payload: String?, headers: NotificationHeaders?) -> LintView {
        LintView(
            diagnostics: diagnostics, errors: diagnostics.filter { $0.severity == "error" }.count,
            warnings: diagnostics.filter { $0.severity == "warning" }.count, payload: payload, pushType: headers?.pushType?.rawValue,
            priority: headers?.priority?.rawValue, topic: headers?.topic
        )
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
