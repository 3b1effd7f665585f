import NIOCore
import NIOHTTP1
import NIOPosix

/// A local HTTP/1.1 server with the media the scenarios download: `/photo` (image/jpeg),
/// `/avatar.png` (image/png), `/1325645511371.jpg` and `/untyped` (no Content-Type).
final class MediaServer: Sendable {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x11, count: 2048) + [0xFF, 0xD9]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x22, count: 512)

    let channel: any Channel
    var baseURL: String { "http://127.0.0.1:\(channel.localAddress!.port!)" }

    private init(channel: any Channel) {
        self.channel = channel
    }

    static func start() async throws -> MediaServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler())
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return MediaServer(channel: channel)
    }

    func stop() async {
        try? await channel.close()
    }

    private final class Handler: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(let head) = unwrapInboundIn(data) else { return }
            let (status, type, body): (HTTPResponseStatus, String?, [UInt8]) = switch head.uri {
            case "/photo": (.ok, "image/jpeg", MediaServer.jpeg)
            case "/avatar.png": (.ok, "image/png", MediaServer.png)
            case "/1325645511371.jpg": (.ok, nil, MediaServer.jpeg)
            case "/untyped": (.ok, nil, MediaServer.jpeg)
            default: (.notFound, "text/plain", Array("not found".utf8))
            }
            var headers = HTTPHeaders()
            if let type { headers.add(name: "content-type", value: type) }
            headers.add(name: "content-length", value: String(body.count))
            headers.add(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
