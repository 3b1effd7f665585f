/// An APNs device token: the bytes iOS hands the app, written as lowercase hex.
///
/// Tokens have no fixed length (32 bytes is common, 80-byte and other lengths are seen), so any
/// even number of hex digits is accepted. Parsing tolerates what people paste: surrounding
/// whitespace, spaces between groups and the `<…>` of the pre-iOS 13 `NSData` description
/// (`<740f4707 bebcf74f 9b7c25d4 8e335894 5f6aa01d a5ddb387 462c7eaf 61bb78ad>`); anything else
/// is rejected with a message that says what it looks like instead.
///
/// ```swift
/// let token = try DeviceToken(parsing: "<740f4707 bebcf74f …>")
/// token.hex // "740f4707bebcf74f…"
/// ```
public struct DeviceToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Longest token accepted, in bytes (far above any length Apple issues).
    public static let maximumByteCount = 256

    /// The token as lowercase hex, as it goes in the request path.
    public let hex: String

    /// Parses a token as pasted from a log, a database or a request.
    public init(parsing text: String) throws(DeviceTokenError) {
        // The common case, a token as stored (lowercase hex, even length), without the checks
        // below for what people paste.
        var contiguous = text
        if contiguous.withUTF8(Self.isStoredForm) {
            hex = text
            return
        }
        var candidate = text.trimmingWhitespace()
        if candidate.isEmpty { throw .empty }
        if candidate.hasPrefix("{") && candidate.contains("length") && candidate.contains("bytes") {
            throw .dataDescription
        }
        if candidate.hasPrefix("<") && candidate.hasSuffix(">") {
            candidate = String(candidate.dropFirst().dropLast())
        }
        candidate = String(candidate.filter { !$0.isWhitespace })
        if candidate.isEmpty { throw .empty }
        if Self.looksLikeUUID(candidate) { throw .simulatorUDID }
        if candidate.contains(":") && candidate.count > 100 { throw .firebaseToken }
        if candidate.hasPrefix("0x") || candidate.hasPrefix("0X") { candidate.removeFirst(2) }
        if candidate.isEmpty { throw .empty }

        if candidate.contains(where: { !($0.isASCII && $0.isHexDigit) }) {
            if Self.looksLikeBase64(candidate) { throw .base64 }
            throw Self.firstInvalidCharacter(in: text)
        }
        guard candidate.count.isMultiple(of: 2) else { throw .oddLength(candidate.count) }
        guard candidate.count <= Self.maximumByteCount * 2 else { throw .tooLong(bytes: candidate.count / 2) }
        self.hex = candidate.lowercased()
    }

    /// A token from raw bytes (what `didRegisterForRemoteNotificationsWithDeviceToken` gives).
    public init(bytes: some Collection<UInt8>) throws(DeviceTokenError) {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= Self.maximumByteCount else { throw .tooLong(bytes: bytes.count) }
        self.hex = bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// Whether the UTF-8 is a token as stored: lowercase hex of even length, not empty, not too
    /// long.
    private static func isStoredForm(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !utf8.isEmpty, utf8.count.isMultiple(of: 2), utf8.count <= maximumByteCount * 2 else { return false }
        for byte in utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) else {
                return false
            }
        }
        return true
    }

    /// The raw bytes.
    public var bytes: [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for byte in hex.utf8 {
            let nibble = byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : byte - UInt8(ascii: "a") + 10
            if let current = high {
                result.append(current << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return result
    }

    /// The token shortened for logs: first and last six hex digits.
    public var redacted: String {
        hex.count <= 16 ? hex : "\(hex.prefix(6))…\(hex.suffix(6))"
    }

    public var description: String { hex }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }

    /// The first character of the text as typed that is not part of a token, with its 1-based
    /// position in that text.
    static func firstInvalidCharacter(in text: String) -> DeviceTokenError {
        let characters = Array(text)
        var start = characters.firstIndex { !$0.isWhitespace } ?? 0
        if start < characters.count, characters[start] == "<" { start += 1 }
        if start + 1 < characters.count, characters[start] == "0", characters[start + 1] == "x" || characters[start + 1] == "X" { start += 2 }
        let end = characters.lastIndex { !$0.isWhitespace }.map { characters[$0] == ">" ? $0 : $0 + 1 } ?? characters.count
        for index in start..<max(start, end) where !characters[index].isWhitespace && !(characters[index].isASCII && characters[index].isHexDigit) {
            return .invalidCharacter(characters[index], position: index)
        }
        return .invalidCharacter(" ", position: 0)
    }

    static func looksLikeUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// Base64 of a token: at least 24 characters of the base64 alphabet with padding, '+' or '/',
    /// or letters of both cases (hex is one case).
    static func looksLikeBase64(_ text: String) -> Bool {
        guard text.count >= 24, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+/=_-".contains($0)) }) else {
            return false
        }
        return text.contains { "+/=".contains($0) } || (text.contains(where: \.isUppercase) && text.contains(where: \.isLowercase))
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}
