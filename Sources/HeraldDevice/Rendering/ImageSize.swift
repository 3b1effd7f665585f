import Foundation

/// The pixel size of PNG, JPEG or GIF data, read from its header, and its MIME type.
struct ImageSize: Equatable {
    var width: Int
    var height: Int

    /// The MIME type by the first bytes, for PNG, JPEG and GIF.
    static func mime(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(4))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8]) { return "image/jpeg" }
        if bytes.starts(with: [0x47, 0x49, 0x46]) { return "image/gif" }
        return nil
    }

    /// The size, or `nil` when the header cannot be read.
    static func of(_ data: Data) -> ImageSize? {
        let bytes = [UInt8](data.prefix(64 * 1024))
        func be16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        switch mime(data) {
        case "image/png" where bytes.count >= 24:
            return ImageSize(width: be32(16), height: be32(20))
        case "image/gif" where bytes.count >= 10:
            return ImageSize(width: Int(bytes[6]) | Int(bytes[7]) << 8, height: Int(bytes[8]) | Int(bytes[9]) << 8)
        case "image/jpeg":
            // Walk the segments to a start-of-frame marker (C0…CF except C4, C8, CC).
            var i = 2
            while i + 9 < bytes.count {
                guard bytes[i] == 0xFF else { return nil }
                let marker = bytes[i + 1]
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) { i += 2; continue }
                let length = be16(i + 2)
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    return ImageSize(width: be16(i + 7), height: be16(i + 5))
                }
                i += 2 + length
            }
            return nil
        default:
            return nil
        }
    }
}
