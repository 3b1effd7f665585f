import NIOCore
import NIOHPACK
import Testing

@testable import HeraldHTTP2

@Suite("HPACK header block encoder")
struct HeaderBlockEncoderTests {
    /// Encodes with Herald's encoder, decodes with swift-nio-http2's decoder.
    struct Pair {
        var encoder = HeaderBlockEncoder()
        var decoder = HPACKDecoder(allocator: ByteBufferAllocator(), maxDynamicTableSize: 4096, maxHeaderListSize: 1 << 20)

        mutating func roundTrip(_ headers: HPACKHeaders) throws -> (decoded: [(String, String)], bytes: Int) {
            var buffer = ByteBuffer()
            encoder.encode(headers, into: &buffer)
            let bytes = buffer.readableBytes
            let decoded = try decoder.decodeHeaders(from: &buffer)
            return (decoded.map { ($0.name, $0.value) }, bytes)
        }
    }

    func request(path: String, token: String, id: String? = nil) -> HPACKHeaders {
        var headers = HPACKHeaders()
        headers.add(name: ":method", value: "POST")
        headers.add(name: ":scheme", value: "https")
        headers.add(name: ":path", value: path, indexing: .nonIndexable)
        headers.add(name: ":authority", value: "api.push.apple.com")
        headers.add(name: "authorization", value: "bearer \(token)")
        headers.add(name: "apns-topic", value: "com.example.app")
        headers.add(name: "apns-push-type", value: "alert")
        if let id { headers.add(name: "apns-id", value: id, indexing: .neverIndexed) }
        return headers
    }

    @Test func repeatedFieldsShrinkToIndexes() throws {
        var pair = Pair()
        let token = String(repeating: "t", count: 200)
        let first = try pair.roundTrip(request(path: "/3/device/aa", token: token))
        let second = try pair.roundTrip(request(path: "/3/device/bb", token: token))
        #expect(first.decoded.map(\.1) == request(path: "/3/device/aa", token: token).map(\.value))
        #expect(second.decoded.map(\.1) == request(path: "/3/device/bb", token: token).map(\.value))
        // The second block is the path literal plus one byte per repeated field.
        #expect(second.bytes == 2 + 1 + 1 + 12 + 1 + 1 + 1 + 1)
        #expect(first.bytes > 250)
    }

    @Test func evictionKeepsBothTablesInStep() throws {
        var pair = Pair()
        var random = SystemRandomNumberGenerator()
        for round in 0..<2_000 {
            var headers = request(path: "/3/device/\(round)", token: "token-\(round / 50)", id: round % 3 == 0 ? "id-\(round)" : nil)
            // Values that vary enough to fill and churn the 4 KB table.
            headers.add(name: "x-field-\(random.next() % 40)", value: String(repeating: "v", count: Int(random.next() % 300)))
            headers.add(name: "apns-collapse-id", value: "c\(random.next() % 20)")
            let result = try pair.roundTrip(headers)
            #expect(result.decoded.map(\.0) == headers.map(\.name))
            #expect(result.decoded.map(\.1) == headers.map(\.value))
            if round == 1_000 { pair.encoder.setPeerTableSize(512) }
        }
    }

    @Test func aSmallerPeerTableIsAnnounced() throws {
        var pair = Pair()
        _ = try pair.roundTrip(request(path: "/a", token: "x"))
        pair.encoder.setPeerTableSize(0)
        let after = try pair.roundTrip(request(path: "/b", token: "x"))
        #expect(after.decoded.map(\.1) == request(path: "/b", token: "x").map(\.value))
        #expect(pair.decoder.allowedDynamicTableLength == 0)
    }

    @Test func aShrinkAndGrowBetweenBlocksSendsBothSizes() throws {
        var pair = Pair()
        _ = try pair.roundTrip(request(path: "/a", token: "x"))
        pair.encoder.setPeerTableSize(0)
        pair.encoder.setPeerTableSize(4096)
        var buffer = ByteBuffer()
        pair.encoder.encode(request(path: "/b", token: "y"), into: &buffer)
        // 0x20 = size 0, then 0x3F E1 1F = size 4096 (RFC 7541 §4.2: the smallest first).
        #expect(Array(buffer.readableBytesView.prefix(4)) == [0x20, 0x3F, 0xE1, 0x1F])
        #expect(try pair.decoder.decodeHeaders(from: &buffer).first(name: "authorization") == "bearer y")
    }

    @Test func longLengthsUseContinuationBytes() {
        var buffer = ByteBuffer()
        buffer.writeHPACKInteger(1337, prefix: 5, flags: 0)
        // RFC 7541 C.1.2: 1337 with a 5-bit prefix is 31, 154, 10.
        #expect(Array(buffer.readableBytesView) == [31, 154, 10])
    }
}
