import Foundation
import HeraldCore

/// Converts between the `[AnyHashable: Any]` dictionaries app code uses (`userInfo`) and the
/// JSON the device works with. Property-list values map as JSON does: strings, numbers,
/// booleans, arrays and string-keyed dictionaries.
///
/// `Data` and `Date`, which app code may put in a userInfo for its content extension (seed 000
/// passes the downloaded image that way), travel as strings (base64, ISO 8601 with
/// milliseconds), and the paths of the values converted so are listed under ``taggedKey``. Only
/// those come back to app code as `Data` and `Date`, and the list itself is not shown: a string
/// in a push payload always stays a string.
enum PropertyListBridge {
    /// The top-level key listing the converted values' paths.
    static let taggedKey = "herald-userinfo-types"

    static func userInfo(_ object: JSONObject) -> [AnyHashable: Any] {
        var tagged: [String: String] = [:]
        if case .object(let list)? = object[taggedKey] {
            for entry in list.effectiveEntries { if let kind = entry.value.stringValue { tagged[entry.key] = kind } }
        }
        var result: [AnyHashable: Any] = [:]
        for entry in object.effectiveEntries where entry.key != taggedKey {
            result[entry.key] = value(entry.value, path: entry.key, tagged: tagged)
        }
        return result
    }

    static func value(_ json: JSONValue, path: String, tagged: [String: String]) -> Any {
        switch json {
        case .null: return NSNull()
        case .bool(let bool): return bool
        case .number(let number): return number.intValue.map { $0 as Any } ?? number.doubleValue
        case .string(let string):
            switch tagged[path] {
            case "data": return Data(base64Encoded: string) ?? string
            case "date": return Self.dateFormatter.date(from: string) ?? string
            default: return string
            }
        case .array(let array): return array.enumerated().map { value($0.element, path: path + "." + String($0.offset), tagged: tagged) }
        case .object(let object):
            var result: [AnyHashable: Any] = [:]
            for entry in object.effectiveEntries { result[entry.key] = value(entry.value, path: path + "." + entry.key, tagged: tagged) }
            return result
        }
    }

    static func json(_ userInfo: [AnyHashable: Any]) -> JSONObject {
        var tagged = JSONObject()
        var object = JSONObject()
        for (key, value) in userInfo.sorted(by: { "\($0.key)" < "\($1.key)" }) {
            let name = String(describing: key.base)
            guard name != taggedKey else { continue }
            object[name] = json(value, path: name, tagged: &tagged)
        }
        if !tagged.isEmpty { object[taggedKey] = .object(tagged) }
        return object
    }

    static func json(_ value: Any, path: String, tagged: inout JSONObject) -> JSONValue {
        switch value {
        case let bool as Bool: return .bool(bool)
        case let int as Int: return .number(JSONNumber(int))
        case let double as Double: return .number(JSONNumber(double))
        case let float as Float: return .number(JSONNumber(Double(float)))
        case let number as NSNumber: return .number(JSONNumber(number.doubleValue))
        case let string as String: return .string(string)
        case let date as Date:
            tagged[path] = .string("date")
            return .string(dateFormatter.string(from: date))
        case let data as Data:
            tagged[path] = .string("data")
            return .string(data.base64EncodedString())
        case let url as URL: return .string(url.absoluteString)
        case let array as [Any]: return .array(array.enumerated().map { json($0.element, path: path + "." + String($0.offset), tagged: &tagged) })
        case let dictionary as [AnyHashable: Any]:
            var object = JSONObject()
            for (key, value) in dictionary.sorted(by: { "\($0.key)" < "\($1.key)" }) {
                let name = String(describing: key.base)
                object[name] = json(value, path: path + "." + name, tagged: &tagged)
            }
            return .object(object)
        case is NSNull: return .null
        default: return .string(String(describing: value))
        }
    }

    /// ISO 8601 with milliseconds, so a date comes back as it went (to the millisecond).
    nonisolated(unsafe) static let dateFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
