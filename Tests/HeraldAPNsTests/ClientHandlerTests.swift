import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2
import Testing

@testable import HeraldAPNs
@testable import HeraldHTTP2

/// The client handler on an embedded channel with a virtual clock, for what a real server
/// cannot be made to do on cue.
@Suite("APNs client handler")
struct ClientHandlerTests {
    final class Outcomes {
        var byRequest: [Int: Result<APNsConnection.Response, APNsConnection.Failure>] = [:]
    }

    /// A connection whose server allows `maxStreams` streams.
    func connection(maxStreams: UInt32) throws -> (EmbeddedChannel, APNsClientHandler) {
        let framing = HTTP2FramingHandler(role: .client)
        let handler = APNsClientHandler(authority: "localhost", status: ConnectionStatus(), framing: framing)
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(framing)
        try channel.pipeline.syncOperations.addHandler(handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        var settings = ByteBuffer()
        settings.writeFrameHeader(length: 6, type: FrameType.settings, streamID: .rootStream)
        settings.writeInteger(UInt16(3))
        settings.writeInteger(maxStreams)
        try channel.writeInbound(settings)
        return (channel, handler)
    }

    /// The stream ids of the HEADERS and RST_STREAM frames written so far.
    func written(_ channel: EmbeddedChannel) throws -> (headers: [Int32], resets: [Int32]) {
        var decoder = FrameDecoder()
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { decoder.append(buffer) }
        _ = decoder.readPreface(HTTP2FramingHandler.preface)
        var headers: [Int32] = []
        var resets: [Int32] = []
        while let (header, _) = try decoder.nextFrame() {
            if header.type == FrameType.headers { headers.append(Int32(header.streamID)) }
            if header.type == FrameType.rstStream { resets.append(Int32(header.streamID)) }
        }
        return (headers, resets)
    }

    let request = APNsConnection.Request(path: "/3/device/aa", headers: [("apns-topic", "com.example.app")], body: Array("{}".utf8))

    @Test func aRequestStillWaitingToOpenTimesOutAsNotOpenedWithTheLimit() throws {
        let (channel, handler) = try connection(maxStreams: 1)
        let outcomes = Outcomes()
        handler.start(request, timeout: .milliseconds(200)) { outcomes.byRequest[1] = $0 }
        handler.start(request, timeout: .milliseconds(200)) { outcomes.byRequest[2] = $0 }
        channel.embeddedEventLoop.run()
        // The server allows one stream: the second request waits in the framing layer.
        #expect(try written(channel).headers == [1])

        channel.embeddedEventLoop.advanceTime(by: .milliseconds(190))
        #expect(outcomes.byRequest.isEmpty)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(100))
        // The waiting one is an attempt that found no stream, and says what the server allowed
        // (before, it was "not processed" and resent up to 100 times, each after a full timeout).
        guard case .failure(.timeout)? = outcomes.byRequest[1], case .failure(.notOpened(let why))? = outcomes.byRequest[2] else {
            Issue.record("expected a timeout for the sent request and not-opened for the waiting one: \(outcomes.byRequest)")
            return
        }
        #expect(why.contains("SETTINGS_MAX_CONCURRENT_STREAMS is 1"))
        // The sent stream is reset; the waiting one never reaches the wire.
        let after = try written(channel)
        #expect(after.headers.isEmpty)
        #expect(after.resets == [1])
    }

    @Test func anAnswerBeforeTheDeadlineIsNotTimedOut() throws {
        let (channel, handler) = try connection(maxStreams: 10)
        let outcomes = Outcomes()
        handler.start(request, timeout: .seconds(1)) { outcomes.byRequest[1] = $0 }
        channel.embeddedEventLoop.run()
        var answer = ByteBuffer()
        answer.writeFrameHeader(length: 1, type: FrameType.headers, flags: FrameFlag.endHeaders | FrameFlag.endStream, streamID: 1)
        answer.writeInteger(UInt8(0x88))  // :status 200, static index 8
        try channel.writeInbound(answer)
        guard case .success(let response)? = outcomes.byRequest[1] else {
            Issue.record("no answer: \(outcomes.byRequest)")
            return
        }
        #expect(response.status == 200)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(try written(channel).resets.isEmpty)
    }

    /// DATA frames of `count` bytes each on stream 1, `frames` of them.
    func dataFrames(_ frames: Int, of count: Int) -> ByteBuffer {
        var buffer = ByteBuffer()
        for _ in 0..<frames {
            buffer.writeFrameHeader(length: count, type: FrameType.data, streamID: HTTP2StreamID(1))
            buffer.writeRepeatingByte(0x20, count: count)
        }
        return buffer
    }

    func answerHeaders(_ channel: EmbeddedChannel) throws {
        var block = ByteBuffer()
        var encoder = HeaderBlockEncoder()
        encoder.encode([":status": "400"], into: &block)
        var frame = ByteBuffer()
        frame.writeFrameHeader(length: block.readableBytes, type: FrameType.headers, flags: 0x4, streamID: HTTP2StreamID(1))
        frame.writeBuffer(&block)
        try channel.writeInbound(frame)
    }

    @Test func anAnswerBodyOverTheCapFailsTheRequestAndResetsItsStream() throws {
        // Before: every byte kept, at quadratic cost (46.7 MB in 60 s at 52.6 s of CPU).
        let (channel, handler) = try connection(maxStreams: 10)
        let outcomes = Outcomes()
        handler.start(request, timeout: .seconds(10)) { outcomes.byRequest[1] = $0 }
        channel.embeddedEventLoop.run()
        _ = try written(channel)
        try answerHeaders(channel)
        // The connection window is 1 MB: WINDOW_UPDATEs keep it open as the body comes.
        try channel.writeInbound(dataFrames(4, of: 16_000))
        #expect(outcomes.byRequest.isEmpty)
        try channel.writeInbound(dataFrames(2, of: 1_000))
        guard case .failure(.lost(let why))? = outcomes.byRequest[1] else {
            Issue.record("expected the request to fail once the body passed 64 KB: \(outcomes.byRequest)")
            return
        }
        #expect(why.contains("65536"))
        channel.embeddedEventLoop.run()
        #expect(try written(channel).resets == [1])
        #expect(channel.isActive)
    }

    @Test func aConnectionBrokenByAProtocolErrorSaysWhichInItsFailures() throws {
        // A header block past the size limit ends the connection: the requests in flight say so
        // (before: "the connection closed", with no cause).
        let (channel, handler) = try connection(maxStreams: 10)
        let outcomes = Outcomes()
        handler.start(request, timeout: .seconds(10)) { outcomes.byRequest[1] = $0 }
        channel.embeddedEventLoop.run()
        var frames = ByteBuffer()
        frames.writeFrameHeader(length: 16_000, type: FrameType.headers, streamID: HTTP2StreamID(1))
        frames.writeRepeatingByte(0, count: 16_000)
        for _ in 0..<5 {
            frames.writeFrameHeader(length: 16_000, type: FrameType.continuation, streamID: HTTP2StreamID(1))
            frames.writeRepeatingByte(0, count: 16_000)
        }
        try? channel.writeInbound(frames)
        channel.embeddedEventLoop.run()
        guard case .failure(.lost(let why))? = outcomes.byRequest[1] else {
            Issue.record("expected the request to be lost: \(outcomes.byRequest)")
            return
        }
        #expect(why.contains("header block longer than"), "\(why)")
    }
}
