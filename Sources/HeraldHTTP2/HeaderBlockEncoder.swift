import NIOCore
import NIOHPACK

/// Encodes header blocks with HPACK (RFC 7541), keeping its own copy of the dynamic table.
///
/// Fields the caller marks indexable are added to the dynamic table and sent as a one-byte
/// index afterwards (an APNs connection repeats the same provider token, topic and push type on
/// every stream); exact matches are found by hashing, not by scanning the table. Strings are sent
/// as plain literals: Huffman coding is optional in HPACK and would cost both ends CPU to save a
/// few bytes of random ids and tokens.
struct HeaderBlockEncoder {
    /// The size HPACK counts for an entry: name and value octets plus 32 (RFC 7541 §4.1).
    static func size(name: String, value: String) -> Int { name.utf8.count + value.utf8.count + 32 }

    /// The largest dynamic table this side keeps (the protocol default).
    static let defaultTableSize = 4096

    private struct Field: Hashable {
        var name: String
        var value: String
    }

    private struct Entry {
        var field: Field
        var size: Int
        /// Its insertion number: entries are numbered 0, 1, 2… in the order they were added.
        var number: Int
    }

    private(set) var maxTableSize = defaultTableSize
    private var tableSize = 0
    /// Live entries, oldest first.
    private var entries: [Entry] = []
    private var insertions = 0
    /// The insertion number of the newest live copy of each field.
    private var numbers: [Field: Int] = [:]
    /// Size updates owed to the peer at the start of the next block: the smallest size the
    /// table took since the last block, and the size it has now (RFC 7541 §4.2).
    private var pendingSizeUpdate: (smallest: Int, final: Int)?

    /// Applies the peer's SETTINGS_HEADER_TABLE_SIZE: the table never grows past the default,
    /// and shrinks (with a size update in the next block) if the peer allows less.
    mutating func setPeerTableSize(_ size: Int) {
        let newSize = min(size, Self.defaultTableSize)
        guard newSize != maxTableSize else { return }
        maxTableSize = newSize
        evict(toFit: 0)
        pendingSizeUpdate = (min(pendingSizeUpdate?.smallest ?? newSize, newSize), newSize)
    }

    /// Appends the encoded block for `headers` to `buffer`.
    mutating func encode(_ headers: HPACKHeaders, into buffer: inout ByteBuffer) {
        if let update = pendingSizeUpdate {
            pendingSizeUpdate = nil
            if update.smallest < update.final { buffer.writeHPACKInteger(update.smallest, prefix: 5, flags: 0x20) }
            buffer.writeHPACKInteger(update.final, prefix: 5, flags: 0x20)
        }
        for (name, value, indexing) in headers {
            let field = Field(name: name, value: value)
            if let index = StaticHeaderTable.index(of: name, value: value) {
                buffer.writeHPACKInteger(index, prefix: 7, flags: 0x80)
                continue
            }
            if let number = numbers[field] {
                buffer.writeHPACKInteger(StaticHeaderTable.count + insertions - number, prefix: 7, flags: 0x80)
                continue
            }
            let nameIndex = StaticHeaderTable.index(of: name) ?? 0
            let size = Self.size(name: name, value: value)
            switch indexing {
            case .indexable where size <= maxTableSize:
                buffer.writeHPACKInteger(nameIndex, prefix: 6, flags: 0x40)
                insert(field, size: size)
            case .neverIndexed:
                buffer.writeHPACKInteger(nameIndex, prefix: 4, flags: 0x10)
            default:
                buffer.writeHPACKInteger(nameIndex, prefix: 4, flags: 0x00)
            }
            if nameIndex == 0 { buffer.writeHPACKString(name) }
            buffer.writeHPACKString(value)
        }
    }

    private mutating func insert(_ field: Field, size: Int) {
        evict(toFit: size)
        entries.append(Entry(field: field, size: size, number: insertions))
        numbers[field] = insertions
        insertions += 1
        tableSize += size
    }

    /// Drops the oldest entries until `size` more bytes fit.
    private mutating func evict(toFit size: Int) {
        var dropped = 0
        while tableSize + size > maxTableSize, dropped < entries.count {
            let oldest = entries[dropped]
            tableSize -= oldest.size
            if numbers[oldest.field] == oldest.number { numbers[oldest.field] = nil }
            dropped += 1
        }
        if dropped > 0 { entries.removeFirst(dropped) }
    }
}

extension ByteBuffer {
    /// An HPACK integer with an N-bit prefix (RFC 7541 §5.1); `flags` fills the bits above it.
    mutating func writeHPACKInteger(_ value: Int, prefix: Int, flags: UInt8) {
        let limit = (1 << prefix) - 1
        guard value >= limit else {
            writeInteger(flags | UInt8(value))
            return
        }
        writeInteger(flags | UInt8(limit))
        var rest = value - limit
        while rest >= 128 {
            writeInteger(UInt8(rest & 0x7F | 0x80))
            rest >>= 7
        }
        writeInteger(UInt8(rest))
    }

    /// An HPACK string literal, not Huffman-coded (RFC 7541 §5.2).
    mutating func writeHPACKString(_ string: String) {
        writeHPACKInteger(string.utf8.count, prefix: 7, flags: 0)
        writeString(string)
    }
}
