import NIOCore
import NIOHTTP2

/// Cuts the bytes read from a connection into frames: each frame comes out as its header and a
/// slice of its payload (no copy); a frame split across reads waits for the rest.
struct FrameDecoder {
    /// The largest frame payload accepted (our SETTINGS_MAX_FRAME_SIZE).
    var maxFrameSize = 16_384
    private var buffer: ByteBuffer?

    /// Adds bytes read from the connection.
    mutating func append(_ incoming: ByteBuffer) {
        guard var existing = buffer, existing.readableBytes > 0 else {
            buffer = incoming
            return
        }
        // A partial frame is left: copy it and the new bytes into a fresh buffer, so the bytes
        // already read are not carried along (nor copied again on every read).
        var joined = ByteBufferAllocator().buffer(capacity: existing.readableBytes + incoming.readableBytes)
        joined.writeBuffer(&existing)
        joined.writeImmutableBuffer(incoming)
        buffer = joined
    }

    /// Reads the client connection preface: `true` once read, `false` if the bytes differ,
    /// `nil` while too few bytes have come to tell.
    mutating func readPreface(_ preface: [UInt8]) -> Bool? {
        guard var bytes = buffer else { return nil }
        let count = min(bytes.readableBytes, preface.count)
        guard bytes.readableBytesView.prefix(count).elementsEqual(preface.prefix(count)) else { return false }
        guard count == preface.count else { return nil }
        bytes.moveReaderIndex(forwardBy: count)
        buffer = bytes
        return true
    }

    /// The next complete frame, or `nil` when more bytes are needed.
    mutating func nextFrame() throws(HTTP2ConnectionError) -> (header: FrameHeader, payload: ByteBuffer)? {
        guard var bytes = buffer, bytes.readableBytes >= FrameHeader.size else { return nil }
        let start = bytes.readerIndex
        let length = Int(bytes.getInteger(at: start, as: UInt8.self)!) << 16 | Int(bytes.getInteger(at: start + 1, as: UInt16.self)!)
        guard length <= maxFrameSize else {
            throw HTTP2ConnectionError(.frameSizeError, "a frame of \(length) bytes; the most this side accepts is \(maxFrameSize)")
        }
        guard bytes.readableBytes >= FrameHeader.size + length else { return nil }
        let streamID = bytes.getInteger(at: start + 5, as: UInt32.self)! & 0x7FFF_FFFF
        let header = FrameHeader(
            length: length, type: bytes.getInteger(at: start + 3)!, flags: bytes.getInteger(at: start + 4)!,
            streamID: HTTP2StreamID(Int32(streamID))
        )
        let payload = bytes.getSlice(at: start + FrameHeader.size, length: length)!
        bytes.moveReaderIndex(forwardBy: FrameHeader.size + length)
        buffer = bytes.readableBytes > 0 ? bytes : nil
        return (header, payload)
    }
}
