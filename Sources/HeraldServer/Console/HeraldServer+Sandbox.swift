import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension HeraldServer {
    /// `/v1/sandbox/…`: the in-process sandbox's admin API (its devices, what they received,
    /// injected faults, counters), for the console's Sandbox page. The sandbox serves every app,
    /// so only the admin key reaches it.
    func sandboxCall(_ request: Request, _ method: String, _ path: String, token: String? = nil) async throws -> Response {
        _ = try await keys.admin(request)
        guard let sandbox = configuration.sandboxAdministration else {
            throw APIError.notFound("this server runs no sandbox (it was started with --no-sandbox or --apns-url)")
        }
        var uri = path
        if let token {
            guard !token.isEmpty, token.count <= 200, token.allSatisfy(\.isHexDigit) else {
                throw APIError.badRequest("a sandbox device token is hexadecimal digits; got '\(token.prefix(80))'")
            }
            uri = uri.replacingOccurrences(of: "{token}", with: token.lowercased())
        }
        if method == "DELETE", token != nil, request.uri.queryParameters["expired"] == "true" { uri += "?expired=true" }
        let body = ["PUT", "POST"].contains(method) ? try await JSONBody.bytes(of: request, limit: 64 << 10) : []
        let answer = await sandbox.administer(method: method, uri: uri, body: method == "POST" && body.isEmpty ? [] : body)
        return Response(
            status: HTTPResponse.Status(code: answer.status), headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
        )
    }
}
