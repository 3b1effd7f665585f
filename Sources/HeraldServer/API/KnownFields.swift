import HeraldCore

/// A request body whose JSON objects may hold only the fields it names. JSONDecoder ignores a
/// field it does not know, so a typo (`userID` for `userId`) would be accepted and do nothing;
/// ``JSONBody`` answers 400 naming the field and the allowed ones instead.
protocol KnownFields {
    /// Each field's name, and what its value holds.
    static var fields: [String: FieldShape] { get }
}

/// What a known field's value holds, for the check.
enum FieldShape {
    /// A value the decoder checks (a string, a number, an array of them, or a free object such
    /// as an APNs payload).
    case value
    /// An object with its own known fields.
    case object(any KnownFields.Type)
    /// An object of any keys (language tags, environments) whose values are such objects.
    case objects(any KnownFields.Type)
}

extension KnownFields {
    /// Throws a 400 for the first unknown field in `value`, depth first, with its path.
    static func check(_ value: JSONValue, path: String = "") throws(APIError) {
        guard case .object(let object) = value else { return }  // wrong types are the decoder's to report
        for key in object.keys where fields[key] == nil {
            throw .badRequest("unknown field '\(path)\(key)'; allowed here: \(fields.keys.sorted().joined(separator: ", "))")
        }
        for (key, shape) in fields {
            guard let child = object[key] else { continue }
            switch shape {
            case .value:
                break
            case .object(let type):
                try type.check(child, path: "\(path)\(key).")
            case .objects(let type):
                guard case .object(let members) = child else { continue }
                for member in members.entries { try type.check(member.value, path: "\(path)\(key).\(member.key).") }
            }
        }
    }
}
