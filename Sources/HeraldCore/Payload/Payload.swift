/// An APNs notification payload: the `aps` dictionary plus any custom keys beside it.
///
/// The payload is a typed view over its JSON: every property reads from and writes to the
/// underlying ``JSONObject``, so decoding any APNs JSON and encoding it again keeps every key,
/// its order and its exact value, including keys Herald does not know and values of the wrong type
/// (those read as `nil` through the typed properties and are reported by lint).
///
/// ```swift
/// let payload = Payload.alert(title: "Order shipped", body: "Arrives Tuesday").badge(1).sound("default")
/// let bytes = payload.serialized
/// let same = try Payload(decoding: bytes)
/// ```
public struct Payload: Sendable, Hashable {
    /// The whole top-level JSON object.
    public var json: JSONObject

    /// A payload from its top-level object.
    public init(json: JSONObject = [:]) {
        self.json = json
    }

    /// A payload with the given `aps` and custom keys.
    public init(aps: APS, custom: JSONObject = [:]) {
        var json = JSONObject()
        json["aps"] = .object(aps.json)
        for entry in custom.entries where entry.key != "aps" { json[entry.key] = entry.value }
        self.json = json
    }

    /// Parses payload JSON; the top level must be an object (`aps` itself is optional here, lint
    /// reports when it is missing).
    public init(decoding bytes: some Collection<UInt8>) throws(PayloadDecodingError) {
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            throw .invalidJSON(error)
        }
        guard case .object(let object) = value else {
            throw .notAnObject(found: value.typeName)
        }
        self.json = object
    }

    /// Parses payload JSON text.
    public init(decoding text: String) throws(PayloadDecodingError) {
        try self.init(decoding: Array(text.utf8))
    }

    /// The `aps` dictionary (empty when absent; setting it adds it).
    public var aps: APS {
        get { APS(json: json.object("aps") ?? [:]) }
        set { json["aps"] = .object(newValue.json) }
    }

    /// The custom keys beside `aps`, in order.
    public var custom: JSONObject {
        JSONObject(json.entries.filter { $0.key != "aps" })
    }

    /// A custom key beside `aps`; setting `nil` removes it.
    public subscript(custom key: String) -> JSONValue? {
        get { key == "aps" ? nil : json[key] }
        set { if key != "aps" { json[key] = newValue } }
    }

    /// Compact JSON bytes, as sent to APNs.
    public var serialized: [UInt8] { JSONValue.object(json).serialized }

    /// Compact JSON text.
    public var jsonString: String { JSONValue.object(json).jsonString }
}

extension Payload: Codable {
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        guard case .object(let object) = value else {
            throw DecodingError.typeMismatch(
                Payload.self,
                .init(codingPath: decoder.codingPath, debugDescription: "a payload must be a JSON object, found \(value.typeName)")
            )
        }
        self.json = object
    }

    public func encode(to encoder: any Encoder) throws {
        try JSONValue.object(json).encode(to: encoder)
    }
}
