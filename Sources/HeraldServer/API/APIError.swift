import Foundation
import HTTPTypes
import Hummingbird

/// An error answer: `{"error": {"code": …, "message": …}}` with its HTTP status; lint failures
/// add their diagnostics.
public struct APIError: HTTPResponseError, Sendable {
    public let status: HTTPResponse.Status
    /// A stable, machine-readable code (`bad_request`, `unauthorized`, `not_found`…).
    public let code: String
    /// What was wrong and what is allowed.
    public let message: String
    /// Lint's findings, when the payload was refused.
    public var diagnostics: [DiagnosticView] = []
    /// The request's id (`X-Request-Id`), to find its line in the server's log.
    public var requestID: String?

    public init(_ status: HTTPResponse.Status, code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, code: "bad_request", message) }
    static func notFound(_ message: String) -> APIError { APIError(.notFound, code: "not_found", message) }
    static func conflict(_ message: String) -> APIError { APIError(.conflict, code: "conflict", message) }
    static let unauthorized = APIError(
        .unauthorized, code: "unauthorized", "missing or unknown API key; send it as 'Authorization: Bearer KEY'"
    )
    static func forbidden(_ message: String) -> APIError { APIError(.forbidden, code: "forbidden", message) }

    struct Body: Encodable {
        struct Content: Encodable {
            let code: String
            let message: String
            let diagnostics: [DiagnosticView]?
            let requestId: String?
        }
        let error: Content
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try response()
    }

    /// The error as its JSON answer, for a handler that adds headers to it.
    func response() throws -> Response {
        let body = Body(error: .init(code: code, message: message, diagnostics: diagnostics.isEmpty ? nil : diagnostics, requestId: requestID))
        var response = try JSONBody.response(body, status: status)
        if let requestID { response.headers[RequestLogMiddleware<BasicRequestContext>.requestIDField] = requestID }
        if status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
        return response
    }
}
