import NIOCore
import NIOHTTP2

/// The nine bytes in front of every HTTP/2 frame (RFC 9113 §4.1).
struct FrameHeader {
    /// The size of a frame header on the wire.
    static let size = 9

    var length: Int
    var type: UInt8
    var flags: UInt8
    var streamID: HTTP2StreamID

    func has(_ flag: UInt8) -> Bool { flags & flag != 0 }
}

/// Frame type codes (RFC 9113 §6).
enum FrameType {
    static let data: UInt8 = 0x0
    static let headers: UInt8 = 0x1
    static let priority: UInt8 = 0x2
    static let rstStream: UInt8 = 0x3
    static let settings: UInt8 = 0x4
    static let pushPromise: UInt8 = 0x5
    static let ping: UInt8 = 0x6
    static let goAway: UInt8 = 0x7
    static let windowUpdate: UInt8 = 0x8
    static let continuation: UInt8 = 0x9
}

/// Frame flag bits; their meaning depends on the frame type.
enum FrameFlag {
    static let endStream: UInt8 = 0x1
    static let ack: UInt8 = 0x1
    static let endHeaders: UInt8 = 0x4
    static let padded: UInt8 = 0x8
    static let priority: UInt8 = 0x20
}

extension ByteBuffer {
    /// Writes a frame header.
    mutating func writeFrameHeader(length: Int, type: UInt8, flags: UInt8 = 0, streamID: HTTP2StreamID) {
        let index = writerIndex
        writeRepeatingByte(0, count: FrameHeader.size)
        setFrameHeader(at: index, length: length, type: type, flags: flags, streamID: streamID)
    }

    /// Overwrites the frame header at `index` (its room was reserved before the payload was known).
    mutating func setFrameHeader(at index: Int, length: Int, type: UInt8, flags: UInt8, streamID: HTTP2StreamID) {
        setInteger(UInt8(truncatingIfNeeded: length >> 16), at: index)
        setInteger(UInt16(truncatingIfNeeded: length), at: index + 1)
        setInteger(type, at: index + 3)
        setInteger(flags, at: index + 4)
        setInteger(UInt32(Int32(streamID)), at: index + 5)
    }
}
