/// A JSON object that keeps its members in document order, duplicates included.
///
/// Lookups return the last member with a key, as Apple's JSON parser does. Assigning through the
/// subscript replaces every member with that key by one, kept at the first one's place.
public struct JSONObject: Sendable, Hashable {
    /// One member of an object.
    public struct Entry: Sendable, Hashable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members, in document order.
    public private(set) var entries: [Entry]

    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// The keys in document order (a repeated key appears each time).
    public var keys: [String] { entries.map(\.key) }

    public var isEmpty: Bool { entries.isEmpty }

    public var count: Int { entries.count }

    /// The value of the last member named `key`; assigning `nil` removes every member so named.
    public subscript(key: String) -> JSONValue? {
        get {
            for entry in entries.reversed() where entry.key == key { return entry.value }
            return nil
        }
        set {
            guard let first = entries.firstIndex(where: { $0.key == key }) else {
                if let newValue { entries.append(Entry(key: key, value: newValue)) }
                return
            }
            if let newValue {
                entries[first].value = newValue
                var index = entries.index(after: first)
                while index < entries.endIndex {
                    if entries[index].key == key { entries.remove(at: index) } else { index += 1 }
                }
            } else {
                entries.removeAll { $0.key == key }
            }
        }
    }

    /// One member per key, holding the value that counts (the last), at the key's first place.
    public var effectiveEntries: [Entry] {
        guard hasDuplicateKeys else { return entries }
        var seen = Set<String>()
        return entries.compactMap { entry in
            seen.insert(entry.key).inserted ? Entry(key: entry.key, value: self[entry.key]!) : nil
        }
    }

    /// Whether any key appears more than once (cheap: no allocation for small objects).
    public var hasDuplicateKeys: Bool {
        if entries.count < 2 { return false }
        if entries.count <= 16 {
            for i in 1..<entries.count {
                for j in 0..<i where entries[j].key == entries[i].key { return true }
            }
            return false
        }
        var seen = Set<String>(minimumCapacity: entries.count)
        return entries.contains { !seen.insert($0.key).inserted }
    }

    /// Keys that appear more than once, each reported once, in document order.
    public var duplicateKeys: [String] {
        guard hasDuplicateKeys else { return [] }
        var seen = Set<String>()
        var reported = Set<String>()
        var result: [String] = []
        for entry in entries where !seen.insert(entry.key).inserted {
            if reported.insert(entry.key).inserted { result.append(entry.key) }
        }
        return result
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { Entry(key: $0.0, value: $0.1) })
    }
}
