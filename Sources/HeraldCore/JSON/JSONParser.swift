/// A strict RFC 8259 JSON parser that produces ``JSONValue`` and says exactly where and why a
/// document is wrong.
///
/// It rejects what Apple's parser rejects (trailing commas, comments, single quotes, bare words,
/// control characters in strings, invalid UTF-8) and limits nesting depth so hostile input cannot
/// exhaust the stack.
public struct JSONParser: Sendable {
    /// Deepest nesting of arrays and objects accepted.
    public var maximumDepth: Int

    public init(maximumDepth: Int = 256) {
        self.maximumDepth = maximumDepth
    }

    /// Parses a whole document; anything but whitespace after the value is an error.
    public func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let array = Array(bytes)
        let result: Result<JSONValue, JSONParseError> = array.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer, maximumDepth: maximumDepth)
            do throws(JSONParseError) {
                if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
                    throw reader.failure("the document starts with a UTF-8 byte-order mark, which JSON does not allow; save it as UTF-8 without BOM")
                }
                reader.skipWhitespace()
                let value = try reader.parseValue(depth: 0)
                reader.skipWhitespace()
                if reader.index < buffer.count {
                    throw reader.failure("unexpected \(reader.describeCurrent()) after the end of the JSON value")
                }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a document given as a string.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

extension JSONValue {
    /// Parses `bytes` as one JSON document with the default ``JSONParser``.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        self = try JSONParser().parse(bytes)
    }

    /// Parses `text` as one JSON document with the default ``JSONParser``.
    public init(parsing text: String) throws(JSONParseError) {
        self = try JSONParser().parse(text)
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func failure(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let offset = min(offset ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        for position in 0..<offset where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        // Count characters, not bytes: skip UTF-8 continuation bytes.
        var column = 1
        for position in lineStart..<offset where bytes[position] & 0xC0 != 0x80 {
            column += 1
        }
        return JSONParseError(offset: offset, line: line, column: column, message: message)
    }

    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x20 { return "control character U+\(String(byte, radix: 16, uppercase: true).leftPadded(to: 4))" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else {
            throw failure("the document ends where a value was expected")
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "'"):
            throw failure("strings must use double quotes (\"), not single quotes")
        case UInt8(ascii: "/"):
            throw failure("comments are not allowed in JSON")
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            throw failure("expected a value, found \(describeCurrent())")
        default:
            throw failure("expected a value (object, array, string, number, true, false or null), found \(describeCurrent())")
        }
    }

    mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
        let start = index
        let length = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected -> Bool in
            guard bytes.count - index >= length else { return false }
            for offset in 0..<length where bytes[index + offset] != expected[offset] { return false }
            return true
        }
        guard matches else {
            throw failure("expected a value (object, array, string, number, true, false or null), found \(describeCurrent())", at: start)
        }
        index += length
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else {
            throw failure("nesting deeper than \(maximumDepth) levels is not accepted")
        }
        index += 1  // {
        var entries: [JSONObject.Entry] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(entries))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw failure("the document ends inside an object; expected a key in double quotes") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}") {
                    throw failure("trailing comma before '}' is not allowed in JSON; remove the last ','")
                }
                throw failure("expected an object key in double quotes, found \(describeCurrent())")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure("expected ':' after the key \"\(key)\", found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            entries.append(JSONObject.Entry(key: key, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw failure("the document ends inside an object; expected ',' or '}'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(JSONObject(entries))
            default: throw failure("expected ',' or '}' after the value of \"\(key)\", found \(describeCurrent())")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else {
            throw failure("nesting deeper than \(maximumDepth) levels is not accepted")
        }
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                throw failure("trailing comma before ']' is not allowed in JSON; remove the last ','")
            }
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw failure("the document ends inside an array; expected ',' or ']'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw failure("expected ',' or ']' after an array element, found \(describeCurrent())")
            }
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw failure("expected a digit after '-'")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw failure("numbers must not have leading zeros")
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw failure("expected a digit after the decimal point")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw failure("expected a digit in the exponent")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return JSONNumber(validatedLiteral: literal)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func parseString() throws(JSONParseError) -> String {
        let open = index
        index += 1  // "
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                guard let string = String(validating: slice, as: UTF8.self) else {
                    throw failure("the string is not valid UTF-8", at: start + firstInvalidUTF8(slice))
                }
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("\(describeCurrent()) must be escaped inside a string") }
            index += 1
        }
        guard index < bytes.count else { throw failure("the string that starts here is never closed with '\"'", at: open) }
        // Slow path with escapes.
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: scalars, as: UTF8.self) else {
                    throw failure("the string is not valid UTF-8", at: open)
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    index -= 1
                    throw failure("invalid escape '\\\(Character(Unicode.Scalar(escape)))'; JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
                }
            default:
                if byte < 0x20 { throw failure("\(describeCurrent()) must be escaped inside a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw failure("the string that starts here is never closed with '\"'", at: open)
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("expected four hexadecimal digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("expected four hexadecimal digits after \\u, found \(describeCurrent())")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let start = index - 2
        let first = try parseHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw failure("a high surrogate \\u\(String(first, radix: 16)) must be followed by a low surrogate \\uDC00–\\uDFFF", at: start)
            }
            index += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw failure("a high surrogate must be followed by a low surrogate \\uDC00–\\uDFFF", at: start)
            }
            let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            return Unicode.Scalar(combined)!
        }
        guard let scalar = Unicode.Scalar(first) else {
            throw failure("a lone low surrogate \\u\(String(first, radix: 16)) is not a character", at: start)
        }
        return scalar
    }

    func firstInvalidUTF8(_ slice: UnsafeBufferPointer<UInt8>) -> Int {
        var iterator = slice.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput, .error: return offset
            }
        }
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
