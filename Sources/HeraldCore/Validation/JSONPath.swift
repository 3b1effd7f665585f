/// A path into a JSON document, rendered as `aps.alert.loc-args[1]` (keys that are not plain
/// words are quoted: `["my key"]`).
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// The root of the document.
    public static let root = JSONPath()

    /// The path to `aps.<keys…>`.
    public static func aps(_ keys: String...) -> JSONPath {
        JSONPath([.key("aps")] + keys.map(Component.key))
    }

    /// The path of the containing value.
    public func dropLast() -> JSONPath { JSONPath(Array(components.dropLast())) }

    public func appending(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }

    public func appending(index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }

    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
                if plain {
                    text += text.isEmpty ? key : ".\(key)"
                } else {
                    text += "[\(JSONValue.string(key).jsonString)]"
                }
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}
