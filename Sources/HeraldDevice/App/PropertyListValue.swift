import Foundation

/// A value read from a property list (Info.plist, entitlements, `.strings`), as a Sendable tree.
public indirect enum PropertyListValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// Reads a property list file in any format PropertyListSerialization knows: XML, binary, or
    /// the old-style text of `.strings` files.
    public static func read(contentsOf url: URL) throws(AppBundleError) -> PropertyListValue {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
        return try parse(data, path: url.path)
    }

    /// Parses property list bytes; `path` only names the source in errors.
    public static func parse(_ data: Data, path: String) throws(AppBundleError) -> PropertyListValue {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .unreadable(path: path, reason: "is not a property list (XML, binary or old-style text)")
        }
        guard let value = PropertyListValue(object) else {
            throw .unreadable(path: path, reason: "holds a value that is not a property list type")
        }
        return value
    }

    /// Converts what PropertyListSerialization returned.
    init?(_ object: Any) {
        if type(of: object) == Bool.self, let bool = object as? Bool {
            self = .bool(bool)
        } else if let string = object as? String {
            self = .string(string)
        } else if let number = object as? NSNumber {
            let code = String(cString: number.objCType)
            if code == "c" || code == "B" {
                self = .bool(number.boolValue)
            } else if code == "d" || code == "f" {
                self = .real(number.doubleValue)
            } else {
                self = .integer(number.intValue)
            }
        } else if let date = object as? Date {
            self = .date(date)
        } else if let data = object as? Data {
            self = .data(data)
        } else if let array = object as? [Any] {
            var values: [PropertyListValue] = []
            for element in array {
                guard let value = PropertyListValue(element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        } else if let dictionary = object as? [AnyHashable: Any] {
            var values: [String: PropertyListValue] = [:]
            for (key, element) in dictionary {
                guard let key = key.base as? String, let value = PropertyListValue(element) else { return nil }
                values[key] = value
            }
            self = .dictionary(values)
        } else {
            return nil
        }
    }

    public subscript(key: String) -> PropertyListValue? {
        if case .dictionary(let dictionary) = self { dictionary[key] } else { nil }
    }

    public var stringValue: String? {
        if case .string(let string) = self { string } else { nil }
    }

    public var boolValue: Bool? {
        if case .bool(let bool) = self { bool } else { nil }
    }

    /// A number, integer or real.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    public var arrayValue: [PropertyListValue]? {
        if case .array(let array) = self { array } else { nil }
    }

    public var dictionaryValue: [String: PropertyListValue]? {
        if case .dictionary(let dictionary) = self { dictionary } else { nil }
    }

    /// The type name a plist editor shows, for messages.
    public var typeName: String {
        switch self {
        case .string: "String"
        case .integer, .real: "Number"
        case .bool: "Boolean"
        case .date: "Date"
        case .data: "Data"
        case .array: "Array"
        case .dictionary: "Dictionary"
        }
    }
}
