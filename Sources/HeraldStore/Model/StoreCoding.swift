import Foundation

/// The JSON both backends keep whole records in (apps, notifications, schedules).
enum StoreCoding {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(type, from: Data(text.utf8))
    }

    /// Tags as stored in the `devices` row (the `device_tags` table is what queries use).
    static func encodeTags(_ tags: [String]) -> String {
        (try? encode(tags)) ?? "[]"
    }

    static func decodeTags(_ text: String?) -> [String] {
        guard let text else { return [] }
        return (try? decode([String].self, from: text)) ?? []
    }
}
