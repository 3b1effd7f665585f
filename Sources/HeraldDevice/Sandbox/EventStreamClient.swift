import NIOCore
import NIOHTTP1
import NIOPosix

/// Reads a server-sent event stream and yields each `data:` event as a push.
enum EventStreamClient {
    static func connect(host: String, port: Int, path: String) async throws -> AsyncThrowingStream<IncomingPush, any Error> {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        let (stream, continuation) = AsyncThrowingStream<IncomingPush, any Error>.makeStream()
        let (opened, openedContinuation) = AsyncThrowingStream<Void, any Error>.makeStream()
        let task = Task {
            do {
                try await channel.executeThenClose { inbound, outbound in
                    var headers = HTTPHeaders()
                    headers.add(name: "host", value: "\(host):\(port)")
                    headers.add(name: "accept", value: "text/event-stream")
                    try await outbound.write(.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)))
                    try await outbound.write(.end(nil))
                    var pending = ""
                    for try await part in inbound {
                        switch part {
                        case .head(let head):
                            guard head.status == .ok else {
                                throw DeviceError.invalid("the sandbox refused the event stream \(path) (HTTP \(head.status.code))")
                            }
                        case .body(let buffer):
                            pending += String(buffer: buffer)
                            while let end = pending.range(of: "\n\n") {
                                let event = String(pending[..<end.lowerBound])
                                pending.removeSubrange(..<end.upperBound)
                                if event.hasPrefix(": subscribed") { openedContinuation.yield() }
                                let data = event.split(separator: "\n").filter { $0.hasPrefix("data:") }
                                    .map { $0.dropFirst(5).drop { $0 == " " } }.joined(separator: "\n")
                                if !data.isEmpty { continuation.yield(try IncomingPush(eventData: data)) }
                            }
                        case .end:
                            continuation.finish()
                            return
                        }
                    }
                    continuation.finish()
                }
            } catch {
                openedContinuation.finish(throwing: error)
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        // Return once the sandbox confirms the subscription, so no push can slip by.
        var iterator = opened.makeAsyncIterator()
        _ = try await iterator.next()
        return stream
    }
}
