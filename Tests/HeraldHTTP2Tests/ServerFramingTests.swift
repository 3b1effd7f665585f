import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2
import Testing

@testable import HeraldHTTP2

@Suite("HTTP/2 framing, server side")
struct ServerFramingTests {
    /// A server handler on an active embedded channel whose client sent its preface and SETTINGS
    /// and acknowledged the server's.
    func connectedServer(maxStreams: Int = 10, acknowledged: Bool = true) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: HTTP2FramingHandler(role: .server, configuration: .init(maxConcurrentStreams: maxStreams)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try channel.writeInbound(FrameBytes.preface)
        try channel.writeInbound(FrameBytes.settings())
        if acknowledged { try channel.writeInbound(FrameBytes.frame(FrameType.settings, flags: FrameFlag.ack)) }
        return channel
    }

    @Test func startsWithSettingsAndAcknowledgesThePeers() throws {
        let channel = try connectedServer(maxStreams: 7)
        let written = try channel.writtenFrames()
        #expect(written.first?.type == FrameType.settings)
        var settings = written[0].payload
        var values: [UInt16: UInt32] = [:]
        while let code = settings.readInteger(as: UInt16.self), let value = settings.readInteger(as: UInt32.self) { values[code] = value }
        #expect(values[3] == 7)
        #expect(written.contains { $0.type == FrameType.windowUpdate && $0.streamID == 0 })
        #expect(written.contains { $0.type == FrameType.settings && $0.flags == FrameFlag.ack })
        let frames = try channel.readFrames()
        guard case .settings(.settings) = frames.first?.payload else {
            Issue.record("the peer's SETTINGS were not passed up")
            return
        }
    }

    @Test func garbageInsteadOfThePrefaceEndsTheConnection() throws {
        let channel = EmbeddedChannel(handler: HTTP2FramingHandler(role: .server))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        #expect(throws: HTTP2ConnectionError.self) { try channel.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\n")) }
        let goAway = try channel.writtenFrames().last
        #expect(goAway?.type == FrameType.goAway)
        #expect(goAway?.errorCode == 1)
        #expect(!channel.isActive)
    }

    @Test func aFirstFrameOtherThanSettingsIsAProtocolError() throws {
        let channel = EmbeddedChannel(handler: HTTP2FramingHandler(role: .server))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try channel.writeInbound(FrameBytes.preface)
        #expect(throws: HTTP2ConnectionError.self) { try channel.writeInbound(FrameBytes.frame(FrameType.ping, payload: Array(repeating: 0, count: 8))) }
        #expect(try channel.writtenFrames().last?.errorCode == 1)
    }

    @Test func aRequestIsPassedUpAndItsAnswerEncoded() throws {
        let channel = try connectedServer()
        _ = try channel.writtenFrames()
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 1, FrameBytes.request))
        try channel.writeInbound(FrameBytes.data(stream: 1, bytes: Array("{}".utf8), endStream: true))
        let frames = try channel.readFrames().filter { $0.streamID == 1 }
        #expect(frames.count == 2)
        guard case .headers(let headers) = frames[0].payload, case .data(let data) = frames[1].payload else {
            Issue.record("expected HEADERS then DATA, got \(frames)")
            return
        }
        #expect(headers.headers.first(name: ":path") == "/3/device/abc")
        #expect(!headers.endStream && data.endStream)

        var answer = HPACKHeaders()
        answer.add(name: ":status", value: "200")
        answer.add(name: "apns-id", value: "0E9A0E4D-6C4B-4AC5-9A31-8F1AC46E4C9A")
        try channel.writeOutbound(HTTP2Frame(streamID: 1, payload: .headers(.init(headers: answer, endStream: true))))
        let written = try channel.writtenFrames()
        #expect(written.count == 1)
        var block = written[0].payload
        let decoded = try bytes.decoder.decodeHeaders(from: &block)
        #expect(decoded.first(name: "apns-id") == "0E9A0E4D-6C4B-4AC5-9A31-8F1AC46E4C9A")
        #expect(written[0].flags & FrameFlag.endStream != 0)
        // Both sides ended the stream: it no longer counts.
        let handler = try channel.pipeline.syncOperations.handler(type: HTTP2FramingHandler.self)
        #expect(handler.state.streams.isEmpty && handler.state.peerOpenCount == 0)
    }

    @Test func streamsBeyondTheLimitAreRefused() throws {
        let channel = try connectedServer(maxStreams: 1)
        _ = try channel.writtenFrames()
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 1, FrameBytes.request))
        try channel.writeInbound(bytes.headers(stream: 3, FrameBytes.request, endStream: true))
        let written = try channel.writtenFrames()
        #expect(written.count == 1)
        #expect(written[0].type == FrameType.rstStream && written[0].streamID == 3 && written[0].errorCode == 7)
        // HPACK stayed in step: a later stream decodes once a higher limit is acknowledged.
        try channel.writeOutbound(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings([HTTP2Setting(parameter: .maxConcurrentStreams, value: 5)]))))
        try channel.writeInbound(FrameBytes.frame(FrameType.settings, flags: FrameFlag.ack))
        try channel.writeInbound(bytes.headers(stream: 5, FrameBytes.request, endStream: true))
        let opened = try channel.readFrames().filter { $0.streamID == 5 }
        #expect(opened.count == 1)
    }

    @Test func theLimitSentHoldsBeforeThePeerAcknowledgesIt() throws {
        // A peer that never acknowledges SETTINGS still gets only the streams it was told
        // (before: unlimited until the acknowledgement, and a million streams were opened).
        let channel = try connectedServer(maxStreams: 1, acknowledged: false)
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 1, FrameBytes.request))
        _ = try channel.writtenFrames()
        for stream in stride(from: Int32(3), through: 41, by: 2) { try channel.writeInbound(bytes.headers(stream: stream, FrameBytes.request)) }
        let refused = try channel.writtenFrames().filter { $0.type == FrameType.rstStream && $0.errorCode == 7 }
        #expect(refused.count == 20)
        #expect(try channel.readFrames().filter { $0.streamID != 0 }.count == 1)
        // A higher limit waits for the acknowledgement; a lower one holds at once.
        try channel.writeOutbound(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings([HTTP2Setting(parameter: .maxConcurrentStreams, value: 3)]))))
        try channel.writeInbound(bytes.headers(stream: 43, FrameBytes.request))
        #expect(try channel.writtenFrames().contains { $0.streamID == 43 && $0.errorCode == 7 })
        try channel.writeInbound(FrameBytes.frame(FrameType.settings, flags: FrameFlag.ack))  // the first SETTINGS (limit 1)
        try channel.writeInbound(bytes.headers(stream: 45, FrameBytes.request))
        #expect(try channel.writtenFrames().contains { $0.streamID == 45 && $0.errorCode == 7 })
        try channel.writeInbound(FrameBytes.frame(FrameType.settings, flags: FrameFlag.ack))  // the second (limit 3)
        try channel.writeInbound(bytes.headers(stream: 47, FrameBytes.request))
        #expect(try channel.writtenFrames().allSatisfy { $0.type != FrameType.rstStream })
        try channel.writeOutbound(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings([HTTP2Setting(parameter: .maxConcurrentStreams, value: 1)]))))
        try channel.writeInbound(bytes.headers(stream: 49, FrameBytes.request))
        #expect(try channel.writtenFrames().contains { $0.streamID == 49 && $0.errorCode == 7 })
        // An acknowledgement nobody asked for is a protocol error.
        try channel.writeInbound(FrameBytes.frame(FrameType.settings, flags: FrameFlag.ack))
        #expect(throws: HTTP2ConnectionError.self) { try channel.writeInbound(FrameBytes.frame(FrameType.settings, flags: FrameFlag.ack)) }
    }

    @Test func aHeaderBlockContinues() throws {
        let channel = try connectedServer()
        var bytes = FrameBytes()
        let block = bytes.block(FrameBytes.request + [("apns-topic", "com.example.app")])
        let cut = block.count / 2
        try channel.writeInbound(FrameBytes.frame(FrameType.headers, flags: FrameFlag.endStream, stream: 1, payload: Array(block[..<cut])))
        #expect(try channel.readFrames().allSatisfy { $0.streamID == 0 })
        try channel.writeInbound(FrameBytes.frame(FrameType.continuation, flags: FrameFlag.endHeaders, stream: 1, payload: Array(block[cut...])))
        let frames = try channel.readFrames()
        guard case .headers(let headers) = frames.last?.payload else {
            Issue.record("the continued block was not passed up")
            return
        }
        #expect(headers.headers.first(name: "apns-topic") == "com.example.app")
        #expect(headers.endStream)
    }

    @Test func anInterruptedHeaderBlockIsAProtocolError() throws {
        let channel = try connectedServer()
        var bytes = FrameBytes()
        let block = bytes.block(FrameBytes.request)
        try channel.writeInbound(FrameBytes.frame(FrameType.headers, stream: 1, payload: Array(block[..<4])))
        #expect(throws: HTTP2ConnectionError.self) { try channel.writeInbound(FrameBytes.settings()) }
        #expect(try channel.writtenFrames().last?.errorCode == 1)
    }

    @Test func pingsAreAnsweredWithTheSameData() throws {
        let channel = try connectedServer()
        _ = try channel.writtenFrames()
        try channel.writeInbound(FrameBytes.frame(FrameType.ping, payload: [1, 2, 3, 4, 5, 6, 7, 8]))
        let written = try channel.writtenFrames()
        #expect(written.count == 1)
        #expect(written[0].type == FrameType.ping && written[0].flags == FrameFlag.ack)
        #expect(Array(written[0].payload.readableBytesView) == [1, 2, 3, 4, 5, 6, 7, 8])
    }

    @Test func anOversizedFrameIsAFrameSizeError() throws {
        let channel = try connectedServer()
        #expect(throws: HTTP2ConnectionError.self) {
            try channel.writeInbound(FrameBytes.data(stream: 1, bytes: Array(repeating: 0, count: 16_385)))
        }
        #expect(try channel.writtenFrames().last?.errorCode == 6)
    }

    @Test func dataOnAStreamNeverOpenedIsAProtocolError() throws {
        let channel = try connectedServer()
        #expect(throws: HTTP2ConnectionError.self) { try channel.writeInbound(FrameBytes.data(stream: 9, bytes: [1])) }
        #expect(try channel.writtenFrames().last?.errorCode == 1)
    }

    @Test func lateDataOnAResetStreamIsDroppedButCounted() throws {
        let channel = try connectedServer()
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 1, FrameBytes.request))
        try channel.writeOutbound(HTTP2Frame(streamID: 1, payload: .rstStream(.cancel)))
        _ = try channel.writtenFrames()
        _ = try channel.readFrames()
        // 600 KB of late data: dropped, and the connection window is topped up past its half.
        for _ in 0..<40 { try channel.writeInbound(FrameBytes.data(stream: 1, bytes: Array(repeating: 7, count: 15_000))) }
        #expect(try channel.readFrames().isEmpty)
        let updates = try channel.writtenFrames().filter { $0.type == FrameType.windowUpdate && $0.streamID == 0 }
        #expect(updates.count == 1)
        #expect(channel.isActive)
    }

    @Test func aLongBodyKeepsTheStreamWindowOpen() throws {
        let channel = try connectedServer()
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 1, FrameBytes.request))
        _ = try channel.writtenFrames()
        // 65,535 bytes fit the stream's window (a WINDOW_UPDATE follows half-way)...
        for _ in 0..<4 { try channel.writeInbound(FrameBytes.data(stream: 1, bytes: Array(repeating: 1, count: 16_000))) }
        #expect(channel.isActive)
        let written = try channel.writtenFrames()
        #expect(written.contains { $0.type == FrameType.windowUpdate && $0.streamID == 1 })
        #expect(!written.contains { $0.type == FrameType.rstStream })
        #expect(try channel.readFrames().filter { $0.streamID == 1 }.count == 5)  // HEADERS + 4 DATA
    }
}
