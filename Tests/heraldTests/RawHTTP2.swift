import NIOCore
import NIOPosix
import Synchronization

/// HTTP/2 frames as bytes, written by hand so that the attack and hostile-server tests can send
/// what no well-behaved library would.
enum RawHTTP2 {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    static func frame(_ type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, payload: [UInt8] = []) -> [UInt8] {
        let length = payload.count
        return [UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff), type, flags]
            + withUnsafeBytes(of: stream.bigEndian, Array.init) + payload
    }

    static func settings(_ values: [(UInt16, UInt32)] = []) -> [UInt8] {
        frame(4, payload: values.flatMap { withUnsafeBytes(of: $0.0.bigEndian, Array.init) + withUnsafeBytes(of: $0.1.bigEndian, Array.init) })
    }

    static let settingsAck = frame(4, flags: 1)

    static func ping(_ value: UInt8 = 1) -> [UInt8] { frame(6, payload: Array(repeating: value, count: 8)) }

    static func windowUpdate(stream: UInt32 = 0, _ increment: UInt32) -> [UInt8] {
        frame(8, stream: stream, payload: withUnsafeBytes(of: increment.bigEndian, Array.init))
    }

    static func goAway(lastStream: UInt32 = 0, code: UInt32 = 0) -> [UInt8] {
        frame(7, payload: withUnsafeBytes(of: lastStream.bigEndian, Array.init) + withUnsafeBytes(of: code.bigEndian, Array.init))
    }

    /// An HPACK string literal, not Huffman-coded (lengths below 127).
    private static func literal(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        precondition(bytes.count < 127)
        return [UInt8(bytes.count)] + bytes
    }

    /// A POST request's header block in HPACK, without the dynamic table: `:method POST`,
    /// `:scheme http` (static 3 and 6), `:path` and `:authority` as literals, then `fields`.
    static func requestBlock(path: String, fields: [(String, String)] = []) -> [UInt8] {
        var block: [UInt8] = [0x83, 0x86, 0x04] + literal(path) + [0x01] + literal("127.0.0.1")
        for (name, value) in fields {
            block += [0x00] + literal(name) + longLiteral(value)
        }
        return block
    }

    /// A request's header block that adds every field to the peer's HPACK dynamic table
    /// (literals with incremental indexing): `:path`, `:authority`, then `fields` in order, so
    /// the next request can name them all by index (the last one at 62).
    static func indexingRequestBlock(path: String, fields: [(String, String)]) -> [UInt8] {
        var block: [UInt8] = [0x83, 0x86, 0x44] + literal(path) + [0x41] + literal("127.0.0.1")
        for (name, value) in fields {
            block += [0x40] + literal(name) + longLiteral(value)
        }
        return block
    }

    /// An HPACK string literal of any length (RFC 7541 §5.1, §5.2), not Huffman-coded.
    static func longLiteral(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        guard bytes.count >= 127 else { return [UInt8(bytes.count)] + bytes }
        var out: [UInt8] = [0x7f]
        var rest = bytes.count - 127
        while rest >= 128 {
            out.append(UInt8(rest & 0x7f | 0x80))
            rest >>= 7
        }
        out.append(UInt8(rest))
        return out + bytes
    }

    /// HEADERS carrying a whole header block.
    static func headers(stream: UInt32, block: [UInt8], endStream: Bool = false) -> [UInt8] {
        frame(1, flags: 0x4 | (endStream ? 1 : 0), stream: stream, payload: block)
    }

    static func data(stream: UInt32, _ bytes: [UInt8], endStream: Bool = false) -> [UInt8] {
        frame(0, flags: endStream ? 1 : 0, stream: stream, payload: bytes)
    }
}

/// Reads the frames a peer sends, keeping what the tests look at: the GOAWAY code and the
/// HEADERS frames' stream ids.
struct RawFrameReader {
    private var buffer: [UInt8] = []
    private var skip: Int

    /// `skipPreface`: the bytes start with the client preface (a server reads them).
    init(skipPreface: Bool = false) {
        skip = skipPreface ? RawHTTP2.preface.count : 0
    }

    /// Adds bytes; returns the complete frames they finish, as (type, flags, stream, payload).
    mutating func append(_ bytes: some Sequence<UInt8>) -> [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] {
        buffer += bytes
        if skip > 0 {
            let dropped = min(skip, buffer.count)
            buffer.removeFirst(dropped)
            skip -= dropped
        }
        var frames: [(UInt8, UInt8, UInt32, [UInt8])] = []
        while buffer.count >= 9 {
            let length = Int(buffer[0]) << 16 | Int(buffer[1]) << 8 | Int(buffer[2])
            guard buffer.count >= 9 + length else { break }
            let stream = UInt32(buffer[5] & 0x7f) << 24 | UInt32(buffer[6]) << 16 | UInt32(buffer[7]) << 8 | UInt32(buffer[8])
            frames.append((buffer[3], buffer[4], stream, Array(buffer[9..<(9 + length)])))
            buffer.removeFirst(9 + length)
        }
        return frames
    }
}

/// A raw TCP connection from the tests: writes bytes, and (unless told not to read) notes
/// what came back: a GOAWAY's error code, and whether the other side closed.
final class RawConnection: Sendable {
    let channel: any Channel
    private let observer: Observer

    final class Observer: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        struct Seen {
            var reader = RawFrameReader()
            var goAwayCode: UInt32?
            var closed = false
            var bytes = 0
            var frames: [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] = []
        }
        let seen = Mutex(Seen())

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            seen.withLock { seen in
                seen.bytes += buffer.readableBytes
                for frame in seen.reader.append(buffer.readableBytesView) {
                    if frame.type == 7, frame.payload.count >= 8 {
                        seen.goAwayCode = frame.payload[4..<8].reduce(0) { $0 << 8 | UInt32($1) }
                    }
                    if seen.frames.count < 10_000 { seen.frames.append(frame) }
                }
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            seen.withLock { $0.closed = true }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }

    private init(channel: any Channel, observer: Observer) {
        self.channel = channel
        self.observer = observer
    }

    /// Connects to 127.0.0.1:`port`; with `reading: false` it never reads, so the other side's
    /// writes pile up in its socket. `receiveBuffer` sets the socket's SO_RCVBUF (small: the kernel holds little of what the
    /// other side sends, so what it cannot send stays with it).
    static func open(port: Int, group: any EventLoopGroup, reading: Bool = true, receiveBuffer: Int? = nil) async throws -> RawConnection {
        let observer = Observer()
        var bootstrap = ClientBootstrap(group: group)
        if let receiveBuffer { bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBuffer)) }
        let channel = try await bootstrap
            .channelOption(.autoRead, value: reading)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(observer) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, observer: observer)
    }

    /// Writes bytes; a write that cannot complete (the channel closed) is ignored.
    func write(_ bytes: [UInt8]) async {
        try? await channel.writeAndFlush(channel.allocator.buffer(bytes: bytes)).get()
    }

    /// Writes bytes without waiting for them to reach the socket.
    func send(_ bytes: [UInt8]) {
        channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
    }

    var goAwayCode: UInt32? { observer.seen.withLock { $0.goAwayCode } }
    var isClosed: Bool { observer.seen.withLock { $0.closed } || !channel.isActive }
    var frames: [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] { observer.seen.withLock { $0.frames } }

    /// Waits up to `timeout` for the other side to close.
    func waitUntilClosed(within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !isClosed, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return isClosed
    }

    func close() {
        channel.close(promise: nil)
    }
}
