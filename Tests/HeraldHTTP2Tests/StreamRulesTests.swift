import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2
import Testing

@testable import HeraldHTTP2

/// RFC 9113's rules on stream ids, closed streams, message length and PRIORITY, each a case the
/// framing layer once got wrong.
@Suite("HTTP/2 stream rules (RFC 9113 §5.1, §6.1, §6.3, §8.1.1)")
struct StreamRulesTests {
    func connectedServer() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: HTTP2FramingHandler(role: .server, configuration: .init(maxConcurrentStreams: 10)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try channel.writeInbound(FrameBytes.preface)
        try channel.writeInbound(FrameBytes.settings())
        try channel.writeInbound(FrameBytes.frame(FrameType.settings, flags: FrameFlag.ack))
        _ = try channel.writtenFrames()
        _ = try channel.readFrames()
        return channel
    }

    @Test func aStreamIDGoingBackIsAConnectionError() throws {
        let channel = try connectedServer()
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 5, FrameBytes.request, endStream: true))
        #expect(throws: HTTP2ConnectionError.self) { try channel.writeInbound(bytes.headers(stream: 3, FrameBytes.request, endStream: true)) }
        #expect(try channel.writtenFrames().last?.errorCode == 1)
        #expect(!channel.isActive)
    }

    @Test func aStreamIDUsedAgainIsAConnectionError() throws {
        let channel = try connectedServer()
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 1, FrameBytes.request, endStream: true))
        try channel.writeOutbound(HTTP2Frame(streamID: 1, payload: .headers(.init(headers: [":status": "200"], endStream: true))))
        #expect(throws: HTTP2ConnectionError.self) { try channel.writeInbound(bytes.headers(stream: 1, FrameBytes.request, endStream: true)) }
        #expect(try channel.writtenFrames().last?.errorCode == 1)
    }

    @Test func headersOnAStreamThisSideResetAreIgnored() throws {
        let channel = try connectedServer()
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 1, FrameBytes.request))
        try channel.writeOutbound(HTTP2Frame(streamID: 1, payload: .rstStream(.cancel)))
        // Trailers the client sent before it saw the reset.
        try channel.writeInbound(bytes.headers(stream: 1, [("x-trailer", "1")], endStream: true))
        #expect(channel.isActive)
    }

    @Test func dataOnAClosedStreamIsAStreamClosedError() throws {
        let channel = try connectedServer()
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 1, FrameBytes.request, endStream: true))
        try channel.writeOutbound(HTTP2Frame(streamID: 1, payload: .headers(.init(headers: [":status": "200"], endStream: true))))
        _ = try channel.writtenFrames()
        _ = try channel.readFrames()
        try channel.writeInbound(FrameBytes.data(stream: 1, bytes: [1, 2, 3]))
        let written = try channel.writtenFrames()
        #expect(written.contains { $0.type == FrameType.rstStream && $0.streamID == 1 && $0.errorCode == 5 })
        #expect(try channel.readFrames().isEmpty)
        #expect(channel.isActive)
    }

    @Test func aBodyLongerThanItsContentLengthIsMalformed() throws {
        let channel = try connectedServer()
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 1, FrameBytes.request + [("content-length", "2")]))
        try channel.writeInbound(FrameBytes.data(stream: 1, bytes: Array("{}}".utf8), endStream: true))
        #expect(try channel.writtenFrames().contains { $0.type == FrameType.rstStream && $0.streamID == 1 && $0.errorCode == 1 })
        let up = try channel.readFrames().filter { $0.streamID == 1 }
        // The layer above saw the request start, then its reset, never a body.
        #expect(up.count == 2)
        guard case .rstStream? = up.last?.payload else {
            Issue.record("the malformed request was not reset upwards: \(up)")
            return
        }
        #expect(channel.isActive)
    }

    @Test func aBodyShorterThanItsContentLengthIsMalformed() throws {
        let channel = try connectedServer()
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 1, FrameBytes.request + [("content-length", "10")]))
        try channel.writeInbound(FrameBytes.data(stream: 1, bytes: Array("{}".utf8), endStream: true))
        #expect(try channel.writtenFrames().contains { $0.type == FrameType.rstStream && $0.streamID == 1 && $0.errorCode == 1 })
        // No body at all, though content-length promised one.
        try channel.writeInbound(bytes.headers(stream: 3, FrameBytes.request + [("content-length", "4")], endStream: true))
        #expect(try channel.writtenFrames().contains { $0.type == FrameType.rstStream && $0.streamID == 3 && $0.errorCode == 1 })
        #expect(try channel.readFrames().filter { $0.streamID == 3 }.isEmpty)
        // A body of the length announced is a request like any other.
        try channel.writeInbound(bytes.headers(stream: 5, FrameBytes.request + [("content-length", "2")]))
        try channel.writeInbound(FrameBytes.data(stream: 5, bytes: Array("{}".utf8), endStream: true))
        #expect(try channel.writtenFrames().allSatisfy { $0.streamID != 5 })
        #expect(try channel.readFrames().filter { $0.streamID == 5 }.count == 2)
    }

    @Test func aPriorityFrameOfTheWrongSizeIsAStreamError() throws {
        let channel = try connectedServer()
        var bytes = FrameBytes()
        try channel.writeInbound(bytes.headers(stream: 1, FrameBytes.request))
        try channel.writeInbound(FrameBytes.frame(FrameType.priority, stream: 1, payload: [0, 0, 0, 0]))
        #expect(channel.isActive)
        #expect(try channel.writtenFrames().contains { $0.type == FrameType.rstStream && $0.streamID == 1 && $0.errorCode == 6 })
        // The connection goes on.
        try channel.writeInbound(bytes.headers(stream: 3, FrameBytes.request, endStream: true))
        #expect(try channel.readFrames().contains { $0.streamID == 3 })
    }
}
