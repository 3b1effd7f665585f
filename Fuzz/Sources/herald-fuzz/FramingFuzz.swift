import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2

@testable import HeraldHTTP2

/// The framing layer in both roles, fed arbitrary bytes from the peer in arbitrary pieces, with a
/// layer above that answers requests (server) or has requests in flight (client).
enum FramingFuzz {
    static let preface = ByteBuffer(bytes: HTTP2FramingHandler.preface)

    /// The first byte sets the size of the pieces the rest is read in (1 to 256 bytes).
    static func feed(_ bytes: UnsafeBufferPointer<UInt8>, to channel: EmbeddedChannel) {
        let piece = Int(bytes.first ?? 0) + 1
        var offset = 1
        while offset < bytes.count, channel.isActive {
            let end = min(bytes.count, offset + piece)
            _ = try? channel.writeInbound(ByteBuffer(bytes: UnsafeBufferPointer(rebasing: bytes[offset..<end])))
            while (try? channel.readOutbound(as: ByteBuffer.self)) != nil {}
            offset = end
        }
        // Timers (the SETTINGS timeout) run, then the connection closes.
        channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        _ = try? channel.finish()
    }

    static func server(_ bytes: UnsafeBufferPointer<UInt8>) {
        let channel = EmbeddedChannel()
        let configuration = HTTP2FramingConfiguration(maxConcurrentStreams: 8)
        try! channel.pipeline.syncOperations.addHandlers([HTTP2FramingHandler(role: .server, configuration: configuration), Answerer()])
        try! channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        _ = try? channel.writeInbound(preface)
        feed(bytes, to: channel)
    }

    static func client(_ bytes: UnsafeBufferPointer<UInt8>) {
        let channel = EmbeddedChannel()
        try! channel.pipeline.syncOperations.addHandler(HTTP2FramingHandler(role: .client))
        try! channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        for stream in [1, 3, 5] {
            let headers: HPACKHeaders = [":method": "POST", ":scheme": "https", ":path": "/3/device/aa", ":authority": "localhost"]
            channel.write(HTTP2Frame(streamID: HTTP2StreamID(stream), payload: .headers(.init(headers: headers))), promise: nil)
            let body = ByteBuffer(string: #"{"aps":{"alert":"hi"}}"#)
            channel.write(HTTP2Frame(streamID: HTTP2StreamID(stream), payload: .data(.init(data: .byteBuffer(body), endStream: true))), promise: nil)
        }
        channel.flush()
        feed(bytes, to: channel)
    }

    /// Answers every request that ends, with headers and a body, as the sandbox does.
    final class Answerer: ChannelInboundHandler {
        typealias InboundIn = HTTP2Frame
        typealias OutboundOut = HTTP2Frame

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            let ended: Bool
            switch frame.payload {
            case .headers(let headers): ended = headers.endStream
            case .data(let data): ended = data.endStream
            default: ended = false
            }
            guard ended else { return }
            context.write(wrapOutboundOut(HTTP2Frame(streamID: frame.streamID, payload: .headers(.init(headers: [":status": "400"])))), promise: nil)
            let body = context.channel.allocator.buffer(string: #"{"reason":"BadDeviceToken"}"#)
            context.writeAndFlush(wrapOutboundOut(HTTP2Frame(streamID: frame.streamID, payload: .data(.init(data: .byteBuffer(body), endStream: true)))), promise: nil)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {}
    }
}
