extension JSONObject {
    func string(_ key: String) -> String? { self[key]?.stringValue }

    func int(_ key: String) -> Int? { self[key]?.intValue }

    func double(_ key: String) -> Double? { self[key]?.doubleValue }

    func object(_ key: String) -> JSONObject? { self[key]?.objectValue }

    func strings(_ key: String) -> [String]? {
        guard let array = self[key]?.arrayValue else { return nil }
        let strings = array.compactMap(\.stringValue)
        return strings.count == array.count ? strings : nil
    }

    /// Apple's flags are the number 1; anything else reads as "not set".
    func flag(_ key: String) -> Bool { self[key]?.intValue == 1 }

    mutating func set(_ key: String, _ value: String?) { self[key] = value.map(JSONValue.string) }

    mutating func set(_ key: String, _ value: Int?) { self[key] = value.map { .number(JSONNumber($0)) } }

    mutating func set(_ key: String, _ value: Double?) { self[key] = value.map { .number(JSONNumber($0)) } }

    mutating func set(_ key: String, _ value: JSONObject?) { self[key] = value.map(JSONValue.object) }

    mutating func set(_ key: String, _ value: [String]?) { self[key] = value.map { .array($0.map(JSONValue.string)) } }

    mutating func setFlag(_ key: String, _ value: Bool) { self[key] = value ? .number(JSONNumber(1)) : nil }
}
