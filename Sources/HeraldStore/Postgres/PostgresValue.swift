import PostgresNIO

/// A bind value of the types the store's columns use, null included.
enum PostgresValue: Sendable {
    case text(String?)
    case double(Double?)
    case int(Int64?)

    static func append(_ values: [PostgresValue], to bindings: inout PostgresBindings) {
        for value in values {
            switch value {
            case .text(let text): bindings.append(text)
            case .double(let number): bindings.append(number)
            case .int(let number): bindings.append(number)
            }
        }
    }
}

extension PostgresQuery {
    /// A query with `$n` placeholders and their values.
    static func sql(_ text: String, _ values: [PostgresValue] = []) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: values.count)
        PostgresValue.append(values, to: &bindings)
        return PostgresQuery(unsafeSQL: text, binds: bindings)
    }
}
