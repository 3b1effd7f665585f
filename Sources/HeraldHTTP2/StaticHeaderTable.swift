/// HPACK's static table (RFC 7541 Appendix A), for lookups by name and by name and value.
enum StaticHeaderTable {
    static let entries: [(name: String, value: String)] = [
        (":authority", ""), (":method", "GET"), (":method", "POST"), (":path", "/"), (":path", "/index.html"),
        (":scheme", "http"), (":scheme", "https"), (":status", "200"), (":status", "204"), (":status", "206"),
        (":status", "304"), (":status", "400"), (":status", "404"), (":status", "500"), ("accept-charset", ""),
        ("accept-encoding", "gzip, deflate"), ("accept-language", ""), ("accept-ranges", ""), ("accept", ""),
        ("access-control-allow-origin", ""), ("age", ""), ("allow", ""), ("authorization", ""), ("cache-control", ""),
        ("content-disposition", ""), ("content-encoding", ""), ("content-language", ""), ("content-length", ""),
        ("content-location", ""), ("content-range", ""), ("content-type", ""), ("cookie", ""), ("date", ""),
        ("etag", ""), ("expect", ""), ("expires", ""), ("from", ""), ("host", ""), ("if-match", ""),
        ("if-modified-since", ""), ("if-none-match", ""), ("if-range", ""), ("if-unmodified-since", ""),
        ("last-modified", ""), ("link", ""), ("location", ""), ("max-forwards", ""), ("proxy-authenticate", ""),
        ("proxy-authorization", ""), ("range", ""), ("referer", ""), ("refresh", ""), ("retry-after", ""),
        ("server", ""), ("set-cookie", ""), ("strict-transport-security", ""), ("transfer-encoding", ""),
        ("user-agent", ""), ("vary", ""), ("via", ""), ("www-authenticate", ""),
    ]

    /// The number of static entries; dynamic indexes start after it.
    static let count = entries.count

    private static let byName: [String: Int] = {
        var map: [String: Int] = [:]
        for (offset, entry) in entries.enumerated() where map[entry.name] == nil { map[entry.name] = offset + 1 }
        return map
    }()

    private static let byField: [String: [String: Int]] = {
        var map: [String: [String: Int]] = [:]
        for (offset, entry) in entries.enumerated() where !entry.value.isEmpty { map[entry.name, default: [:]][entry.value] = offset + 1 }
        return map
    }()

    /// The index of the first entry with this name.
    static func index(of name: String) -> Int? { byName[name] }

    /// The index of the entry with this name and value (only entries that have a value).
    static func index(of name: String, value: String) -> Int? { byField[name]?[value] }
}
