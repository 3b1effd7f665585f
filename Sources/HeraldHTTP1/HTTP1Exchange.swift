import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP/1.1 request with a JSON body and its whole answer, on its own connection: what the
/// simulated device says to the sandbox's admin API and the App Server, and how the App Server
/// calls an app's feedback webhook.
public enum HTTP1Exchange {
    /// Sends `body` as `application/json` (with any extra `headers`, such as `authorization`)
    /// and returns the status and the answer's bytes.
    public static func send(
        method: HTTPMethod, host: String, port: Int, path: String, headers extra: [(name: String, value: String)] = [], body: [UInt8]
    ) async throws -> (status: Int, body: [UInt8]) {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
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
            headers.add(name: "connection", value: "close")
            for field in extra { headers.add(name: field.name, value: field.value) }
            var parts: [HTTPClientRequestPart] = [.head(HTTPRequestHead(version: .http1_1, method: method, uri: path, headers: headers))]
            if !body.isEmpty { parts.append(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
            parts.append(.end(nil))
            // A server may answer and close as soon as it has the whole request (an empty body
            // is complete with the head): a write failing then still leaves its answer to read.
            var writeError: (any Error)?
            do {
                try await outbound.write(contentsOf: parts)
            } catch {
                writeError = error
            }
            var status = 0
            var answer: [UInt8] = []
            for try await part in inbound {
                switch part {
                case .head(let head): status = Int(head.status.code)
                case .body(let buffer): answer += buffer.readableBytesView
                case .end: return (status, answer)
                }
            }
            if status == 0, let writeError { throw writeError }
            return (status, answer)
        }
    }
}
