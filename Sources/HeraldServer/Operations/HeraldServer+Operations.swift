import Foundation
import Hummingbird
import NIOCore

extension HeraldServer {
    func health() async throws -> Response {
        do {
            let depth = try await store.queueDepth()
            return try JSONBody.response(["status": "ok", "node": configuration.nodeID, "queueDepth": "\(depth)"])
        } catch {
            return try JSONBody.response(["status": "store unavailable", "node": configuration.nodeID], status: .serviceUnavailable)
        }
    }

    func prometheus() async throws -> Response {
        let text = metrics.render(queueDepth: try await store.queueDepth())
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }

    func openAPI() throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.json))
        )
    }
}
