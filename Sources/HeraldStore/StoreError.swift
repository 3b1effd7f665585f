/// Why a store could not be opened.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database URL is not one the store understands.
    case badURL(String, expected: String)
    /// A schema name with characters other than letters, digits and `_`.
    case badSchema(String)

    /// The URL without the password between `:` and `@`.
    static func redacted(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@"), let scheme = url.range(of: "://"), scheme.upperBound < at,
            let colon = url[scheme.upperBound..<at].firstIndex(of: ":")
        else { return url }
        return url[..<url.index(after: colon)] + "***" + url[at...]
    }

    public var description: String {
        switch self {
        case .badURL(let url, let expected): "'\(Self.redacted(url))' is not a database URL; expected \(expected)"
        case .badSchema(let name): "'\(name)' is not a schema name; use letters, digits and _"
        }
    }
}
