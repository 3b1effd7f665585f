/// Why bytes could not be read as a payload.
public enum PayloadDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not JSON.
    case invalidJSON(JSONParseError)
    /// The JSON is valid but its top level is not an object.
    case notAnObject(found: String)

    public var description: String {
        switch self {
        case .invalidJSON(let error):
            "the payload is not valid JSON: \(error)"
        case .notAnObject(let found):
            "the payload must be a JSON object ({\"aps\": {…}}), found a top-level \(found)"
        }
    }
}
