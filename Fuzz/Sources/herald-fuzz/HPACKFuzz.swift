import NIOCore
import NIOHPACK

@testable import HeraldHTTP2

/// HPACK both ways: the input decoded as a header block (nothing may crash), and the input cut
/// into a header list, encoded by ``HeaderBlockEncoder`` and decoded by NIO's decoder, which must
/// give the same list back, over several blocks (the dynamic tables must stay in step).
enum HPACKFuzz {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        var decoder = HPACKDecoder(allocator: ByteBufferAllocator())
        var block = ByteBuffer(bytes: bytes)
        _ = try? decoder.decodeHeaders(from: &block)

        // Round trips: fields are the input's NUL-separated pieces, name and value alternating.
        var encoder = HeaderBlockEncoder()
        var roundTrip = HPACKDecoder(allocator: ByteBufferAllocator(), maxDynamicTableSize: HPACKDecoder.maxDynamicTableSize, maxHeaderListSize: .max)
        let pieces = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var headers = HPACKHeaders()
        var index = 0
        while index + 1 < pieces.count {
            // Names are lower-case tokens; anything else in them is not HTTP/2.
            let name = String(pieces[index].lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || $0 == "-" })
            if !name.isEmpty { headers.add(name: name, value: pieces[index + 1], indexing: index % 3 == 0 ? .nonIndexable : .indexable) }
            index += 2
        }
        for _ in 0..<3 {
            var encoded = ByteBuffer()
            encoder.encode(headers, into: &encoded)
            guard let decoded = try? roundTrip.decodeHeaders(from: &encoded) else {
                fatalError("HeaderBlockEncoder wrote a block NIO cannot decode: \(headers)")
            }
            let sent = headers.map { "\($0.name): \($0.value)" }
            let got = decoded.map { "\($0.name): \($0.value)" }
            precondition(sent == got, "round trip changed the headers: \(sent) became \(got)")
        }
    }
}
