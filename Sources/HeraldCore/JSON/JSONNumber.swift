/// A JSON number kept as the exact text of the document, so `1`, `1.0` and `1e0` stay distinct
/// on the way through and integers never pass through `Double`.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as written, guaranteed to follow JSON's number grammar.
    public let literal: String

    /// Makes a number from text the parser has already checked against JSON's grammar.
    init(validatedLiteral: String) {
        self.literal = validatedLiteral
    }

    public init(_ value: Int) {
        self.literal = String(value)
    }

    /// A `Double`; non-finite values (which JSON cannot express) are written as `0`.
    public init(_ value: Double) {
        if !value.isFinite {
            self.literal = "0"
        } else if value == value.rounded(), abs(value) < 1e15 {
            self.literal = String(Int64(value))
        } else {
            self.literal = "\(value)"
        }
    }

    /// True when the literal has no fraction and no exponent.
    public var isIntegerLiteral: Bool {
        !literal.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The value as `Int` when the literal is an integer that fits.
    public var intValue: Int? {
        isIntegerLiteral ? Int(literal) : nil
    }

    /// The value as `Double` (rounded for very long literals).
    public var doubleValue: Double {
        Double(literal) ?? 0
    }

    public var description: String { literal }
}
