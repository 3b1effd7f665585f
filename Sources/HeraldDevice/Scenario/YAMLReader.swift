import Foundation
import HeraldCore
import Yams

/// Typed reading of a YAML node with errors that name the file, the line and what is allowed.
struct YAMLReader {
    let file: String

    func fail(_ node: Node?, _ message: String) -> ScenarioError {
        ScenarioError(file: file, line: node?.mark.map { $0.line }, message)
    }

    func mapping(_ node: Node, _ what: String) throws(ScenarioError) -> Node.Mapping {
        guard let mapping = node.mapping else { throw fail(node, "\(what) must be a mapping (key: value lines)") }
        return mapping
    }

    func string(_ node: Node, _ what: String) throws(ScenarioError) -> String {
        guard let scalar = node.scalar else { throw fail(node, "\(what) must be a single value, not a list or mapping") }
        return scalar.string
    }

    func double(_ node: Node, _ what: String) throws(ScenarioError) -> Double {
        guard let value = node.float ?? node.int.map(Double.init) else { throw fail(node, "\(what) must be a number; it is \(node.string.map { "\"\($0)\"" } ?? "not a number")") }
        return value
    }

    func int(_ node: Node, _ what: String) throws(ScenarioError) -> Int {
        guard let value = node.int else { throw fail(node, "\(what) must be a whole number") }
        return value
    }

    /// A whole number within `range`.
    func int(_ node: Node, _ what: String, in range: ClosedRange<Int>) throws(ScenarioError) -> Int {
        let value = try int(node, what)
        guard range.contains(value) else { throw fail(node, "\(what) must be from \(range.lowerBound) to \(range.upperBound); it is \(value)") }
        return value
    }

    func bool(_ node: Node, _ what: String) throws(ScenarioError) -> Bool {
        guard let value = node.bool else { throw fail(node, "\(what) must be true or false") }
        return value
    }

    func strings(_ node: Node, _ what: String) throws(ScenarioError) -> [String] {
        if node.scalar != nil { return [try string(node, what)] }
        guard let sequence = node.sequence else { throw fail(node, "\(what) must be a value or a list of values") }
        var values: [String] = []
        for element in sequence { values.append(try string(element, what)) }
        return values
    }

    /// The longest time a scenario step may name: ten years.
    static let maximumSeconds = 10 * 365 * 86400.0

    /// Seconds from `5`, `5s`, `2m`, `1h` or `1d`: from 0 to ten years.
    func seconds(_ node: Node, _ what: String) throws(ScenarioError) -> Double {
        let value: Double
        if let number = node.float ?? node.int.map(Double.init) {
            value = number
        } else {
            let text = try string(node, what).trimmingCharacters(in: .whitespaces)
            let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
            guard let unit = text.last, let factor = units[unit], let number = Double(text.dropLast()) else {
                throw fail(node, "\(what) must be seconds (5), or a number with s, m, h or d (90s, 2m); it is \"\(text)\"")
            }
            value = number * factor
        }
        guard value.isFinite, value >= 0, value <= Self.maximumSeconds else {
            throw fail(node, "\(what) must be from 0 to ten years of seconds (\(Int(Self.maximumSeconds))); it is \(node.string ?? "\(value)")")
        }
        return value
    }

    /// A YAML tree as JSON: plain scalars become null, booleans and numbers; quoted ones strings.
    func json(_ node: Node) throws(ScenarioError) -> JSONValue {
        switch node {
        case .scalar(let scalar):
            guard scalar.style == .plain || scalar.style == .any else { return .string(scalar.string) }
            if node.null != nil { return .null }
            if let bool = node.bool, ["true", "false"].contains(scalar.string.lowercased()) { return .bool(bool) }
            if let int = node.int { return .number(JSONNumber(int)) }
            if let double = node.float, Double(scalar.string) != nil { return .number(JSONNumber(double)) }
            return .string(scalar.string)
        case .mapping(let mapping):
            var object = JSONObject()
            for (key, value) in mapping { object[try string(key, "a key")] = try json(value) }
            return .object(object)
        case .sequence(let sequence):
            var array: [JSONValue] = []
            for element in sequence { array.append(try json(element)) }
            return .array(array)
        case .alias:
            throw fail(node, "aliases are not supported in scenarios")
        }
    }

    /// A YAML tree as a property list value (for inline Info.plist attributes and entitlements).
    func plist(_ node: Node) throws(ScenarioError) -> PropertyListValue {
        Self.plist(try json(node))
    }

    static func plist(_ value: JSONValue) -> PropertyListValue {
        switch value {
        case .string(let string): return .string(string)
        case .bool(let bool): return .bool(bool)
        case .number(let number): return number.intValue.map(PropertyListValue.integer) ?? .real(number.doubleValue)
        case .array(let values): return .array(values.map(plist))
        case .object(let object): return .dictionary(Dictionary(object.entries.map { ($0.key, plist($0.value)) }) { $1 })
        case .null: return .string("")
        }
    }

    /// Refuses keys the caller does not know, listing the ones it does.
    func checkKeys(_ mapping: Node.Mapping, allowed: [String], in what: String) throws(ScenarioError) {
        for key in mapping.keys {
            guard let name = key.string, allowed.contains(name) else {
                throw fail(key, "unknown key \"\(key.string ?? "?")\" in \(what); allowed: \(allowed.joined(separator: ", "))")
            }
        }
    }
}
