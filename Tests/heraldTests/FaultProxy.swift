import NIOCore
import NIOPosix
import Synchronization

/// A TCP proxy on loopback between two of a test's processes (the App Server and the sandbox,
/// or PostgreSQL), that the test takes down and brings back: an outage as a network or APNs has
/// one. Down, it closes every connection and every new one at once. The answers to requests
/// already forwarded still get through for a moment before the cut, so the outage does not
/// itself lose what was answered. It can also hold back one kind of request (a PostgreSQL
/// statement whose text it sees go by) for a while, as a lock wait or a slow disk does.
final class FaultProxy: Sendable {
    let port: Int
    private let control: Control
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup

    /// Whether it forwards, and the connections to close when it stops.
    final class Control: Sendable {
        struct State {
            var up = true
            var connections: [any Channel] = []
            /// Requests containing these bytes, and what follows them on their connection, go
            /// through this much later.
            var slow: (marker: [UInt8], delay: TimeAmount)?
        }
        let state = Mutex(State())
        var isUp: Bool { state.withLock { $0.up } }

        /// How long to hold `buffer` back, if it is a slowed request.
        func delay(for buffer: ByteBuffer) -> TimeAmount? {
            guard let slow = state.withLock({ $0.slow }) else { return nil }
            let bytes = buffer.readableBytesView
            return bytes.firstRange(of: slow.marker) == nil ? nil : slow.delay
        }
    }

    private init(port: Int, control: Control, channel: any Channel, group: MultiThreadedEventLoopGroup) {
        self.port = port
        self.control = control
        self.channel = channel
        self.group = group
    }

    /// A proxy on a free loopback port to `targetPort`.
    static func start(to targetPort: Int) async throws -> FaultProxy {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let control = Control()
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                guard control.isUp else { return inbound.close() }
                return ClientBootstrap(group: inbound.eventLoop).connect(host: "127.0.0.1", port: targetPort).flatMapThrowing { outbound in
                    control.state.withLock { $0.connections += [inbound, outbound] }
                    try inbound.pipeline.syncOperations.addHandler(Relay(partner: outbound, control: control, upstream: true))
                    try outbound.pipeline.syncOperations.addHandler(Relay(partner: inbound, control: control, upstream: false))
                    inbound.setOption(.autoRead, value: true).whenComplete { _ in }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return FaultProxy(port: channel.localAddress!.port!, control: control, channel: channel, group: group)
    }

    /// Takes the path down: requests stop going through at once, the connections close a
    /// moment later, and new ones are closed as they come.
    func down() async {
        let connections = control.state.withLock { state in
            state.up = false
            defer { state.connections = [] }
            return state.connections
        }
        try? await Task.sleep(for: .milliseconds(300))
        for connection in connections { connection.close(promise: nil) }
    }

    /// From now on each request whose bytes contain `marker` (and whatever its connection sends
    /// after it meanwhile) reaches the server `delay` late.
    func slow(requestsContaining marker: String, by delay: Duration) {
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        control.state.withLock { $0.slow = (Array(marker.utf8), .nanoseconds(nanoseconds)) }
    }

    /// Brings the path back.
    func up() {
        control.state.withLock { $0.up = true }
    }

    func shutdown() async {
        await down()
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    /// Copies bytes to the partner connection; upstream bytes are dropped while the proxy is down,
    /// and held back in order behind a slowed request.
    private final class Relay: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let partner: any Channel
        let control: Control
        let upstream: Bool
        /// Upstream bytes waiting behind a slowed request, in the order they came.
        private var held: [ByteBuffer] = []

        init(partner: any Channel, control: Control, upstream: Bool) {
            self.partner = partner
            self.control = control
            self.upstream = upstream
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if upstream && !control.isUp { return }
            let buffer = unwrapInboundIn(data)
            guard upstream else { return partner.writeAndFlush(buffer, promise: nil) }
            if !held.isEmpty {
                held.append(buffer)
            } else if let delay = control.delay(for: buffer) {
                held.append(buffer)
                context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
                    for buffer in held { partner.write(buffer, promise: nil) }
                    partner.flush()
                    held = []
                }
            } else {
                partner.writeAndFlush(buffer, promise: nil)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            partner.close(promise: nil)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
