import NIOCore
import NIOHPACK
import NIOEmbedded
import NIOHTTP2

@testable import HeraldHTTP2

/// Builds raw frames for the tests, and reads back what a handler wrote.
struct FrameBytes {
    var encoder = HPACKEncoder(allocator: ByteBufferAllocator())
    var decoder = HPACKDecoder(allocator: ByteBufferAllocator())

    static let preface = ByteBuffer(bytes: HTTP2FramingHandler.preface)

    static func frame(_ type: UInt8, flags: UInt8 = 0, stream: Int32 = 0, payload: [UInt8] = []) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeFrameHeader(length: payload.count, type: type, flags: flags, streamID: HTTP2StreamID(stream))
        buffer.writeBytes(payload)
        return buffer
    }

    static func settings(_ values: [(UInt16, UInt32)] = []) -> ByteBuffer {
        var payload = ByteBuffer()
        for (code, value) in values {
            payload.writeInteger(code)
            payload.writeInteger(value)
        }
        return frame(FrameType.settings, payload: Array(payload.readableBytesView))
    }

    static func windowUpdate(stream: Int32, increment: UInt32) -> ByteBuffer {
        var payload = ByteBuffer()
        payload.writeInteger(increment)
        return frame(FrameType.windowUpdate, stream: stream, payload: Array(payload.readableBytesView))
    }

    static func data(stream: Int32, bytes: [UInt8], endStream: Bool = false) -> ByteBuffer {
        frame(FrameType.data, flags: endStream ? FrameFlag.endStream : 0, stream: stream, payload: bytes)
    }

    /// The HPACK block of a request or response.
    mutating func block(_ fields: [(String, String)]) -> [UInt8] {
        var out = ByteBuffer()
        try! encoder.encode(headers: HPACKHeaders(fields), to: &out)
        return Array(out.readableBytesView)
    }

    mutating func headers(stream: Int32, _ fields: [(String, String)], endStream: Bool = false) -> ByteBuffer {
        FrameBytes.frame(FrameType.headers, flags: FrameFlag.endHeaders | (endStream ? FrameFlag.endStream : 0), stream: stream, payload: block(fields))
    }

    static let request = [(":method", "POST"), (":scheme", "https"), (":path", "/3/device/abc"), (":authority", "localhost")]
}

/// A frame as it was written on the wire.
struct WrittenFrame {
    var type: UInt8
    var flags: UInt8
    var streamID: Int32
    var payload: ByteBuffer

    var errorCode: UInt32? {
        switch type {
        case FrameType.rstStream: payload.getInteger(at: payload.readerIndex, as: UInt32.self)
        case FrameType.goAway: payload.getInteger(at: payload.readerIndex + 4, as: UInt32.self)
        default: nil
        }
    }
}

extension EmbeddedChannel {
    /// Every frame the handler wrote so far (the client preface skipped).
    func writtenFrames() throws -> [WrittenFrame] {
        var decoder = FrameDecoder()
        decoder.maxFrameSize = 1 << 24
        while let buffer = try readOutbound(as: ByteBuffer.self) {
            decoder.append(buffer)
        }
        _ = decoder.readPreface(HTTP2FramingHandler.preface)
        var frames: [WrittenFrame] = []
        while let (header, payload) = try decoder.nextFrame() {
            frames.append(WrittenFrame(type: header.type, flags: header.flags, streamID: Int32(header.streamID), payload: payload))
        }
        return frames
    }

    /// Every frame the handler passed up so far.
    func readFrames() throws -> [HTTP2Frame] {
        var frames: [HTTP2Frame] = []
        while let frame = try readInbound(as: HTTP2Frame.self) { frames.append(frame) }
        return frames
    }
}
