import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2
import Testing

@testable import HeraldHTTP2

@Suite("HTTP/2 framing, client side")
struct ClientFramingTests {
    /// A client handler whose server sent `settings`.
    func connectedClient(_ settings: [(UInt16, UInt32)]) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: HTTP2FramingHandler(role: .client))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try channel.writeInbound(FrameBytes.settings(settings))
        _ = try channel.readFrames()
        return channel
    }

    func request(_ stream: Int32, endStream: Bool = true) -> HTTP2Frame {
        HTTP2Frame(streamID: HTTP2StreamID(stream), payload: .headers(.init(headers: HPACKHeaders(FrameBytes.request), endStream: endStream)))
    }

    @Test func startsWithThePrefaceAndDisablesPush() throws {
        let channel = EmbeddedChannel(handler: HTTP2FramingHandler(role: .client))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        var bytes = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(bytes.readBytes(length: 24) == HTTP2FramingHandler.preface)
        #expect(bytes.getInteger(at: bytes.readerIndex + 3, as: UInt8.self) == FrameType.settings)
        #expect(bytes.getInteger(at: bytes.readerIndex + 9, as: UInt16.self) == 2)
        #expect(bytes.getInteger(at: bytes.readerIndex + 11, as: UInt32.self) == 0)
    }

    @Test func streamsWaitForTheServersLimitAndOpenInOrder() throws {
        let channel = try connectedClient([(3, 1)])
        _ = try channel.writtenFrames()
        let second = channel.eventLoop.makePromise(of: Void.self)
        try channel.writeOutbound(request(1))
        channel.writeAndFlush(request(3), promise: second)
        #expect(try channel.writtenFrames().map(\.streamID) == [1])
        // The answer to stream 1 frees the slot: stream 3 goes out.
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 1, [(":status", "200")], endStream: true))
        channel.flush()
        #expect(try channel.writtenFrames().map(\.streamID) == [3])
        try second.futureResult.wait()
    }

    @Test func aWaitingStreamResetNeverReachesTheServer() throws {
        let channel = try connectedClient([(3, 1)])
        _ = try channel.writtenFrames()
        try channel.writeOutbound(request(1))
        let waiting = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(request(3), promise: waiting)
        try channel.writeOutbound(HTTP2Frame(streamID: 3, payload: .rstStream(.cancel)))
        #expect(throws: HTTP2WriteError.streamNotOpened) { try waiting.futureResult.wait() }
        #expect(try channel.writtenFrames().map(\.streamID) == [1])
    }

    @Test func dataWaitsForFlowControlWindow() throws {
        let channel = try connectedClient([(4, 10)])
        _ = try channel.writtenFrames()
        try channel.writeOutbound(request(1, endStream: false))
        let sent = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(HTTP2Frame(streamID: 1, payload: .data(.init(data: .byteBuffer(ByteBuffer(bytes: Array(repeating: 1, count: 25))), endStream: true))), promise: sent)
        var written = try channel.writtenFrames()
        #expect(written.map(\.type) == [FrameType.headers, FrameType.data])
        #expect(written[1].payload.readableBytes == 10 && written[1].flags & FrameFlag.endStream == 0)
        try channel.writeInbound(FrameBytes.windowUpdate(stream: 1, increment: 100))
        channel.flush()
        written = try channel.writtenFrames()
        #expect(written.count == 1 && written[0].payload.readableBytes == 15 && written[0].flags & FrameFlag.endStream != 0)
        try sent.futureResult.wait()
    }

    @Test func goAwayFailsStreamsStillWaitingToOpen() throws {
        let channel = try connectedClient([(3, 1)])
        try channel.writeOutbound(request(1))
        let waiting = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(request(3), promise: waiting)
        var payload = ByteBuffer()
        payload.writeInteger(UInt32(1))
        payload.writeInteger(UInt32(0))
        payload.writeString(#"{"reason":"Shutdown"}"#)
        try channel.writeInbound(FrameBytes.frame(FrameType.goAway, payload: Array(payload.readableBytesView)))
        #expect(throws: HTTP2WriteError.streamNotOpened) { try waiting.futureResult.wait() }
        let frames = try channel.readFrames()
        guard case .goAway(let last, _, let opaque) = frames.first?.payload else {
            Issue.record("GOAWAY was not passed up")
            return
        }
        #expect(last == 1)
        #expect(opaque.map { String(buffer: $0) } == #"{"reason":"Shutdown"}"#)
        // The waiting stream is reported refused, so the layer above can resend it.
        guard case .rstStream(.refusedStream) = frames.last?.payload, frames.last?.streamID == 3 else {
            Issue.record("the waiting stream was not refused: \(frames)")
            return
        }
    }

    @Test func goAwayRefusesOpenStreamsAboveItsLast() throws {
        let channel = try connectedClient([(3, 10)])
        for stream: Int32 in [1, 3, 5] { try channel.writeOutbound(request(stream)) }
        var payload = ByteBuffer()
        payload.writeInteger(UInt32(3))
        payload.writeInteger(UInt32(0))
        try channel.writeInbound(FrameBytes.frame(FrameType.goAway, payload: Array(payload.readableBytesView)))
        let refused = try channel.readFrames().compactMap { frame -> Int32? in
            guard case .rstStream(.refusedStream) = frame.payload else { return nil }
            return Int32(frame.streamID)
        }
        #expect(refused == [5])
        // No new stream opens after GOAWAY.
        let late = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(request(7), promise: late)
        #expect(throws: HTTP2WriteError.streamNotOpened) { try late.futureResult.wait() }
    }

    @Test func aLargeHeaderBlockIsSplitIntoContinuations() throws {
        let channel = try connectedClient([])
        _ = try channel.writtenFrames()
        var headers = HPACKHeaders(FrameBytes.request)
        headers.add(name: "x-big", value: String(repeating: "a", count: 40_000), indexing: .nonIndexable)
        try channel.writeOutbound(HTTP2Frame(streamID: 1, payload: .headers(.init(headers: headers, endStream: true))))
        let written = try channel.writtenFrames()
        #expect(written.count >= 2)
        #expect(written.first?.type == FrameType.headers && written.dropFirst().allSatisfy { $0.type == FrameType.continuation })
        #expect(written.first?.flags == FrameFlag.endStream && written.last?.flags == FrameFlag.endHeaders)
        #expect(written.allSatisfy { $0.payload.readableBytes <= 16_384 })
        var block = ByteBuffer()
        for frame in written {
            var payload = frame.payload
            block.writeBuffer(&payload)
        }
        var decoder = HPACKDecoder(allocator: ByteBufferAllocator(), maxDynamicTableSize: 4096, maxHeaderListSize: 1 << 20)
        #expect(try decoder.decodeHeaders(from: &block).first(name: "x-big")?.count == 40_000)
    }

    @Test func serverPushIsRefused() throws {
        let channel = try connectedClient([])
        #expect(throws: HTTP2ConnectionError.self) {
            try channel.writeInbound(FrameBytes.frame(FrameType.pushPromise, flags: FrameFlag.endHeaders, stream: 1, payload: [0, 0, 0, 2]))
        }
    }
}
