import Foundation

/// `apns-id`: a canonical UUID naming one notification, echoed by APNs in its answer.
///
/// An id parsed from text keeps its spelling: APNs echoes the value it received, so
/// `123E4567-…` goes out and comes back in capitals. Two ids are equal when their UUIDs are,
/// whatever their case.
public struct NotificationID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let uuid: UUID
    /// The text this id was parsed from, sent as is; `nil` for an id made here.
    private let spelling: String?

    public init(_ uuid: UUID = UUID()) {
        self.uuid = uuid
        self.spelling = nil
    }

    /// A random (version 4) id drawn from `generator`: far cheaper than `UUID()` when ids are
    /// made by the thousand (`UUID()` reads the system's random device each time on Linux).
    public init(using generator: inout some RandomNumberGenerator) {
        let high = generator.next() & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000
        let low = generator.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        func h(_ i: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: high >> (56 - 8 * i)) }
        func l(_ i: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: low >> (56 - 8 * i)) }
        self.uuid = UUID(uuid: (h(0), h(1), h(2), h(3), h(4), h(5), h(6), h(7), l(0), l(1), l(2), l(3), l(4), l(5), l(6), l(7)))
        self.spelling = nil
    }

    /// Parses the canonical 8-4-4-4-12 form (either case); anything else is what APNs answers
    /// `BadMessageId` to.
    public init(_ text: String) throws(RequestFieldError) {
        var contiguous = text
        guard let uuid = contiguous.withUTF8(Self.parse) else { throw .badNotificationID(text) }
        self.uuid = uuid
        self.spelling = text
    }

    public static func == (lhs: NotificationID, rhs: NotificationID) -> Bool {
        lhs.uuid == rhs.uuid
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uuid)
    }

    /// The 16 bytes of an 8-4-4-4-12 hex UUID, read byte by byte (every APNs request may carry
    /// one, so this is on the hot path of the sandbox).
    private static func parse(_ utf8: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard utf8.count == 36 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var nibbles = 0
        for position in 0..<36 {
            let character = utf8[position]
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble: UInt64
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = UInt64(character - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = UInt64(character - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = UInt64(character - UInt8(ascii: "A") + 10)
            default: return nil
            }
            if nibbles < 16 { high = high << 4 | nibble } else { low = low << 4 | nibble }
            nibbles += 1
        }
        func h(_ i: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: high >> (56 - 8 * i)) }
        func l(_ i: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: low >> (56 - 8 * i)) }
        return UUID(uuid: (h(0), h(1), h(2), h(3), h(4), h(5), h(6), h(7), l(0), l(1), l(2), l(3), l(4), l(5), l(6), l(7)))
    }

    /// The value sent in `apns-id`: the text it was parsed from, or else the lowercase canonical
    /// form, as Apple's documentation writes it.
    public var headerValue: String {
        spelling ?? canonical
    }

    /// The lowercase canonical form, whatever the spelling.
    public var canonical: String {
        let hex: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var index = 0
                for (position, byte) in bytes.enumerated() {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        out[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    out[index] = hex.utf8Start[Int(byte >> 4)]
                    out[index + 1] = hex.utf8Start[Int(byte & 0x0F)]
                    index += 2
                }
                return index
            }
        }
    }

    public var description: String { headerValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(headerValue)
    }
}
