import Foundation
import HeraldCore

/// Converts between the `[AnyHashable: Any]` dictionaries app code uses (`userInfo`) and the
/// JSON the device works with. Property-list values map as JSON does: strings, numbers,
/// booleans, arrays and string-keyed dictionaries. `Data` and `Date`, which app code may put in
/// a userInfo for its content extension (seed 000 passes the downloaded image that way), travel
/// as strings tagged `herald-data:` (base64) and `herald-date:` (ISO 8601) and come back to app
/// code as `Data` and `Date`.
enum PropertyListBridge {
    static let dataPrefix = "herald-data:"
    static let datePrefix = "herald-date:"

    static func userInfo(_ object: JSONObject) -> [AnyHashable: Any] {
        var result: [AnyHashable: Any] = [:]
        for entry in object.effectiveEntries { result[entry.key] = value(entry.value) }
        return result
    }

    static func value(_ json: JSONValue) -> Any {
        switch json {
        case .null: NSNull()
        case .bool(let bool): bool
        case .number(let number): number.intValue.map { $0 as Any } ?? number.doubleValue
        case .string(let string):
            if string.hasPrefix(dataPrefix), let data = Data(base64Encoded: String(string.dropFirst(dataPrefix.count))) {
                data
            } else if string.hasPrefix(datePrefix), let date = ISO8601DateFormatter().date(from: String(string.dropFirst(datePrefix.count))) {
                date
            } else {
                string
            }
        case .array(let array): array.map(value)
        case .object(let object): userInfo(object)
        }
    }

    static func json(_ userInfo: [AnyHashable: Any]) -> JSONObject {
        var object = JSONObject()
        for (key, value) in userInfo.sorted(by: { "\($0.key)" < "\($1.key)" }) {
            object[String(describing: key.base)] = json(value)
        }
        return object
    }

    static func json(_ value: Any) -> JSONValue {
        switch value {
        case let bool as Bool: return .bool(bool)
        case let int as Int: return .number(JSONNumber(int))
        case let double as Double: return .number(JSONNumber(double))
        case let float as Float: return .number(JSONNumber(Double(float)))
        case let number as NSNumber: return .number(JSONNumber(number.doubleValue))
        case let string as String: return .string(string)
        case let date as Date: return .string(datePrefix + ISO8601DateFormatter().string(from: date))
        case let data as Data: return .string(dataPrefix + data.base64EncodedString())
        case let url as URL: return .string(url.absoluteString)
        case let array as [Any]: return .array(array.map(json))
        case let dictionary as [AnyHashable: Any]: return .object(json(dictionary))
        case let dictionary as [String: Any]: return .object(json(Dictionary(uniqueKeysWithValues: dictionary.map { (AnyHashable($0.key), $0.value) })))
        case is NSNull: return .null
        default: return .string(String(describing: value))
        }
    }
}
