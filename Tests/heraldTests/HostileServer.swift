import NIOCore
import NIOPosix
import Synchronization

/// An HTTP/2 server (cleartext, prior knowledge) that misbehaves on purpose, for the client's
/// tests: it counts the connections it accepts and answers every request its own bad way.
final class HostileServer: Sendable {
    /// How it misbehaves.
    enum Behaviour: Sendable {
        /// Announces SETTINGS_MAX_CONCURRENT_STREAMS = 0, then never gives a stream.
        case noStreams
        /// Answers with a body that never ends.
        case endlessBody
        /// Answers with a header block that never ends (CONTINUATION after CONTINUATION).
        case endlessHeaderBlock
        /// Opens the connection window past 2^31 - 1 at once.
        case windowOverflow
        /// Says GOAWAY (last stream 0, NO_ERROR) at once on every connection.
        case goAwayAtOnce
        /// Accepts the connection and never says a word.
        case silent
    }

    let port: Int
    private let channel: any Channel
    private let counter: Counter

    /// Connections accepted so far.
    var accepted: Int { counter.value.load(ordering: .relaxed) }

    private init(port: Int, channel: any Channel, counter: Counter) {
        self.port = port
        self.channel = channel
        self.counter = counter
    }

    static func start(_ behaviour: Behaviour) async throws -> HostileServer {
        let group = MultiThreadedEventLoopGroup.singleton
        let accepted = Counter()
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                accepted.value.add(1, ordering: .relaxed)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Handler(behaviour))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return HostileServer(port: channel.localAddress!.port!, channel: channel, counter: accepted)
    }

    func stop() {
        channel.close(promise: nil)
    }

    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let behaviour: Behaviour
        var reader = RawFrameReader(skipPreface: true)

        init(_ behaviour: Behaviour) {
            self.behaviour = behaviour
        }

        func channelActive(context: ChannelHandlerContext) {
            switch behaviour {
            case .silent: return
            case .noStreams: write(RawHTTP2.settings([(3, 0)]), context: context)
            case .windowOverflow: write(RawHTTP2.settings() + RawHTTP2.windowUpdate(0x7fff_ffff), context: context)
            case .goAwayAtOnce: write(RawHTTP2.settings() + RawHTTP2.goAway(), context: context)
            case .endlessBody, .endlessHeaderBlock: write(RawHTTP2.settings(), context: context)
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            for frame in reader.append(buffer.readableBytesView) where frame.type == 1 {
                let status200: [UInt8] = [0x88]
                switch behaviour {
                case .endlessBody:
                    var answer = RawHTTP2.headers(stream: frame.stream, block: status200)
                    for _ in 0..<6 { answer += RawHTTP2.data(stream: frame.stream, Array(repeating: 0x20, count: 16_000)) }
                    write(answer, context: context)
                case .endlessHeaderBlock:
                    var answer = RawHTTP2.frame(1, stream: frame.stream, payload: status200)
                    for _ in 0..<6 { answer += RawHTTP2.frame(9, stream: frame.stream, payload: Array(repeating: 0, count: 16_000)) }
                    write(answer, context: context)
                default:
                    break
                }
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }

        private func write(_ bytes: [UInt8], context: ChannelHandlerContext) {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
        }
    }
}
