import Foundation
import HeraldCore

/// ``JSONParser`` on any bytes; where Foundation's `JSONSerialization` parses the same document,
/// both must see the same values (objects with a key twice are left out: which one wins is not
/// defined by RFC 8259).
enum JSONFuzz {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let ours = try? JSONParser().parse(bytes) else { return }
        // What parses must print and parse again to the same value.
        guard let again = try? JSONParser().parse(Array(ours.serialized)), again == ours else {
            fatalError("JSONParser: a parsed value does not survive serializing and parsing again")
        }
        guard let theirs = try? JSONSerialization.jsonObject(with: Data(buffer: bytes), options: [.fragmentsAllowed]) else { return }
        if let difference = compare(ours, theirs, at: "$") { fatalError("JSONParser and JSONSerialization differ at \(difference)") }
    }

    /// Where the two values differ, or nil if they agree (or cannot be compared).
    static func compare(_ ours: JSONValue, _ theirs: Any, at path: String) -> String? {
        switch ours {
        case .null:
            return theirs is NSNull ? nil : path
        case .bool(let value):
            return (theirs as? NSNumber)?.boolValue == value ? nil : path
        case .number(let number):
            guard let other = (theirs as? NSNumber)?.doubleValue else { return path }
            let mine = number.doubleValue
            if mine == other || (mine.isNaN && other.isNaN) { return nil }
            // Foundation reads some very long literals through Decimal: allow its rounding.
            return abs(mine - other) <= 1e-9 * max(abs(mine), abs(other)) ? nil : "\(path) (\(number.literal): \(mine) vs \(other))"
        case .string(let value):
            return (theirs as? String) == value ? nil : path
        case .array(let values):
            guard let others = theirs as? [Any], others.count == values.count else { return path }
            for (index, value) in values.enumerated() {
                if let difference = compare(value, others[index], at: "\(path)[\(index)]") { return difference }
            }
            return nil
        case .object(let object):
            guard Set(object.keys).count == object.count else { return nil }
            guard let others = theirs as? [String: Any], others.count == object.count else { return path }
            for entry in object.entries {
                guard let other = others[entry.key] else { return "\(path).\(entry.key)" }
                if let difference = compare(entry.value, other, at: "\(path).\(entry.key)") { return difference }
            }
            return nil
        }
    }
}
