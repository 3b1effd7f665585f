import NIOCore
import NIOHTTP1
import NIOPosix

/// A local HTTP/1.1 server with the media the scenarios and tests download: `/photo`
/// (image/jpeg), `/avatar.png` (image/png), `/1325645511371.jpg` and `/untyped` (no
/// Content-Type), `/big.png` (11 MB, over the image limit), `/page.html` (text/html); any of them
/// after a delay as `/slow/SECONDS/NAME`. Tests only: it binds 127.0.0.1.
public final class MediaServer: Sendable {
    public static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x11, count: 2048) + [0xFF, 0xD9]
    public static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x22, count: 512)

    let channel: any Channel
    public var baseURL: String { "http://127.0.0.1:\(channel.localAddress!.port!)" }

    private init(channel: any Channel) {
        self.channel = channel
    }

    public static func start() async throws -> MediaServer {
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

    public func stop() async {
        try? await channel.close()
    }

    private final class Handler: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(let head) = unwrapInboundIn(data) else { return }
            var path = head.uri
            var delay = 0.0
            let parts = path.split(separator: "/", maxSplits: 2).map(String.init)
            if parts.count == 3, parts[0] == "slow", let seconds = Double(parts[1]) {
                delay = seconds
                path = "/" + parts[2]
            }
            let (status, type, body): (HTTPResponseStatus, String?, [UInt8]) = switch path {
            case "/photo": (.ok, "image/jpeg", MediaServer.jpeg)
            case "/avatar.png": (.ok, "image/png", MediaServer.png)
            case "/1325645511371.jpg": (.ok, nil, MediaServer.jpeg)
            case "/untyped": (.ok, nil, MediaServer.jpeg)
            case "/big.png": (.ok, "image/png", MediaServer.png + Array(repeating: 0, count: 11 * 1024 * 1024))
            case "/page.html": (.ok, "text/html", Array("<html></html>".utf8))
            default: (.notFound, "text/plain", Array("not found".utf8))
            }
            var headers = HTTPHeaders()
            if let type { headers.add(name: "content-type", value: type) }
            headers.add(name: "content-length", value: String(body.count))
            headers.add(name: "connection", value: "close")
            let respond = {
                context.write(self.wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
                context.write(self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
                context.writeAndFlush(self.wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            }
            if delay > 0 {
                context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(delay * 1000))) { respond() }
            } else {
                respond()
            }
        }
    }
}
