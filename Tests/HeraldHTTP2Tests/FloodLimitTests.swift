import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2
import Testing

@testable import HeraldHTTP2

/// The limits that stop a hostile peer (``HTTP2FramingConfiguration``), each against the flood
/// that found it: before these limits, every one of these floods was taken without end.
@Suite("HTTP/2 flood limits")
struct FloodLimitTests {
    /// A server on an embedded channel, with `below` between it and the wire.
    func server(_ configuration: HTTP2FramingConfiguration, below: [any ChannelHandler] = []) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers(below + [HTTP2FramingHandler(role: .server, configuration: configuration)])
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try channel.writeInbound(FrameBytes.preface)
        try channel.writeInbound(FrameBytes.settings())
        try channel.writeInbound(FrameBytes.frame(FrameType.settings, flags: FrameFlag.ack))
        return channel
    }

    /// Feeds frames until the connection ends; returns how many went in and the error code the
    /// connection ended with (its GOAWAY's, or the error's when the GOAWAY could not be written).
    func flood(_ channel: EmbeddedChannel, upTo count: Int, _ frame: (Int) -> ByteBuffer) throws -> (sent: Int, code: UInt32?) {
        var sent = 0
        var thrown: HTTP2ConnectionError?
        do {
            while sent < count, channel.isActive {
                try channel.writeInbound(frame(sent))
                sent += 1
            }
        } catch let error as HTTP2ConnectionError {
            sent += 1
            thrown = error
        }
        let goAway = try channel.writtenFrames().last { $0.type == FrameType.goAway }?.errorCode
        return (sent, goAway ?? thrown.map { UInt32($0.code.networkCode) })
    }

    static let enhanceYourCalm: UInt32 = 0xb

    @Test func controlFramesTheWireCannotTakeEndTheConnection() throws {
        // The peer sends PINGs and never reads the acknowledgements: they wait in a socket that
        // takes nothing (here, writes that never complete). Before: 192 MB of PING ACKs.
        var configuration = HTTP2FramingConfiguration(maxQueuedControlFrames: 100)
        configuration.controlFrameBudget = FrameBudget(count: 1_000_000, per: .seconds(10))
        let channel = try server(configuration, below: [NeverWrites()])
        let (sent, code) = try flood(channel, upTo: 10_000) { _ in FrameBytes.frame(FrameType.ping, payload: Array(repeating: 1, count: 8)) }
        #expect(sent <= 102)
        #expect(code == Self.enhanceYourCalm)
        #expect(!channel.isActive)
    }

    @Test func aServerStopsReadingWhileItsAnswersCannotBeWritten() throws {
        let counter = ReadCounter()
        let channel = try server(HTTP2FramingConfiguration(), below: [counter])
        channel.isWritable = false
        channel.read()
        #expect(counter.reads == 0)
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        #expect(counter.reads == 1)
        channel.read()
        #expect(counter.reads == 2)
    }

    @Test func emptyDataFramesInARowEndTheConnection() throws {
        let channel = try server(HTTP2FramingConfiguration())
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 1, FrameBytes.request))
        // A few empty frames are tolerated; a flood is not (before: 5M taken, 4 s of CPU).
        let (sent, code) = try flood(channel, upTo: 100_000) { _ in FrameBytes.data(stream: 1, bytes: []) }
        #expect(sent == 9)
        #expect(code == Self.enhanceYourCalm)
    }

    @Test func emptyContinuationFramesEndTheConnection() throws {
        // The CONTINUATION count is set high: the empty-frame limit alone must end this.
        let channel = try server(HTTP2FramingConfiguration(maxContinuationFrames: 1_000))
        var bytes = FrameBytes()
        let block = bytes.block(FrameBytes.request)
        try channel.writeInbound(FrameBytes.frame(FrameType.headers, stream: 1, payload: block))
        let (sent, code) = try flood(channel, upTo: 100_000) { _ in FrameBytes.frame(FrameType.continuation, stream: 1) }
        #expect(sent == 9)
        #expect(code == Self.enhanceYourCalm)
    }

    @Test func aHeaderBlockOverTooManyContinuationsEndsTheConnection() throws {
        let channel = try server(HTTP2FramingConfiguration())
        var bytes = FrameBytes()
        let block = bytes.block(FrameBytes.request)
        try channel.writeInbound(FrameBytes.frame(FrameType.headers, stream: 1, payload: Array(block.prefix(1))))
        let (sent, code) = try flood(channel, upTo: 1000) { _ in FrameBytes.frame(FrameType.continuation, stream: 1, payload: [0x40]) }
        #expect(sent == 17)
        #expect(code == Self.enhanceYourCalm)
    }

    @Test func rapidResetsEndTheConnection() throws {
        var configuration = HTTP2FramingConfiguration(maxConcurrentStreams: 1_000_000)
        configuration.resetBudget = FrameBudget(count: 50, per: .seconds(10))
        let channel = try server(configuration)
        var bytes = FrameBytes()
        var stream: Int32 = -1
        let (sent, code) = try flood(channel, upTo: 10_000) { index in
            stream += 2
            var frames = bytes.headers(stream: stream, FrameBytes.request)
            var reset = FrameBytes.frame(FrameType.rstStream, stream: stream, payload: [0, 0, 0, 8])
            frames.writeBuffer(&reset)
            return frames
        }
        #expect(sent == 51)
        #expect(code == Self.enhanceYourCalm)
    }

    @Test func pingAndSettingsFloodsEndTheConnection() throws {
        let channel = try server(HTTP2FramingConfiguration())
        let (sent, code) = try flood(channel, upTo: 10_000) { index in
            index % 2 == 0 ? FrameBytes.frame(FrameType.ping, payload: Array(repeating: 1, count: 8)) : FrameBytes.settings([(4, 70_000)])
        }
        // The SETTINGS of the handshake counted too.
        #expect(sent == 500)
        #expect(code == Self.enhanceYourCalm)
    }

    @Test func streamsRefusedBeyondTheLimitAreAStreamErrorFlood() throws {
        let channel = try server(HTTP2FramingConfiguration(maxConcurrentStreams: 1))
        var bytes = FrameBytes()
        var stream: Int32 = -1
        let (sent, code) = try flood(channel, upTo: 1_000_000) { _ in
            stream += 2
            return bytes.headers(stream: stream, FrameBytes.request)
        }
        #expect(sent == 502)  // one opened, 500 refused, then the connection ends
        #expect(code == Self.enhanceYourCalm)
    }

    @Test func aChangedInitialWindowCostsNothingPerStream() throws {
        // 20,000 open streams and 1,000 SETTINGS_INITIAL_WINDOW_SIZE changes: before, each
        // change walked every stream (2,000 SETTINGS with many streams stalled a loop 17–34 s).
        var configuration = HTTP2FramingConfiguration(maxConcurrentStreams: 1_000_000)
        configuration.controlFrameBudget = FrameBudget(count: 1_000_000, per: .seconds(10))
        let channel = try server(configuration)
        var bytes = FrameBytes()
        var batch = ByteBuffer()
        for index in 0..<20_000 {
            var frame = bytes.headers(stream: Int32(2 * index + 1), FrameBytes.request)
            batch.writeBuffer(&frame)
        }
        try channel.writeInbound(batch)
        _ = try channel.readFrames()
        _ = try channel.writtenFrames()
        var settings = ByteBuffer()
        for index in 0..<1_000 {
            var frame = FrameBytes.settings([(4, UInt32(65_535 + index % 2))])
            settings.writeBuffer(&frame)
        }
        let clock = ContinuousClock()
        let elapsed = try clock.measure { try channel.writeInbound(settings) }
        #expect(elapsed < .seconds(2), "1,000 SETTINGS took \(elapsed)")
        #expect(channel.isActive)
    }

    @Test func anInitialWindowThatWouldOverflowAStreamIsAFlowControlError() throws {
        let channel = try server(HTTP2FramingConfiguration())
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 1, FrameBytes.request))
        try channel.writeInbound(FrameBytes.windowUpdate(stream: 1, increment: UInt32(Int32.max) - 65_535))
        #expect(channel.isActive)
        #expect(throws: HTTP2ConnectionError.self) { try channel.writeInbound(FrameBytes.settings([(4, 65_536)])) }
        #expect(try channel.writtenFrames().last?.errorCode == 3)
    }

    @Test func aPeerThatNeverSendsSettingsIsClosed() throws {
        let channel = EmbeddedChannel(handler: HTTP2FramingHandler(role: .server, configuration: .init(settingsTimeout: .seconds(2))))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1_900))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(200))
        #expect(!channel.isActive)
        #expect(try channel.writtenFrames().last?.errorCode == 4)  // SETTINGS_TIMEOUT
        #expect(throws: HTTP2ConnectionError.self) { try channel.throwIfErrorCaught() }
    }
}

/// Swallows every write without completing it: a peer that never reads, seen from the socket.
final class NeverWrites: ChannelOutboundHandler, @unchecked Sendable {
    typealias OutboundIn = ByteBuffer
    private var held: [EventLoopPromise<Void>] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if let promise { held.append(promise) }
    }

    func flush(context: ChannelHandlerContext) {}

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        for promise in held { promise.fail(ChannelError.ioOnClosedChannel) }
        held = []
        context.close(mode: mode, promise: promise)
    }
}

/// Counts the reads that reach the socket.
final class ReadCounter: ChannelOutboundHandler, @unchecked Sendable {
    typealias OutboundIn = ByteBuffer
    private(set) var reads = 0

    func read(context: ChannelHandlerContext) {
        reads += 1
        context.read()
    }
}
