/// An ``Audience`` as a SQL condition on the `devices` table (aliased `d`), for both backends:
/// only the placeholder syntax differs (`?` for SQLite, `$n` for PostgreSQL).
struct AudienceFilter {
    /// The condition, without `WHERE`.
    var condition: String
    /// The values of its placeholders, in order.
    var arguments: [String]

    /// - Parameters:
    ///   - placeholder: the text of the n-th placeholder (1-based).
    ///   - firstIndex: the index of the first placeholder this filter uses.
    init(appID: String, audience: Audience, firstIndex: Int = 1, placeholder: (Int) -> String) {
        var arguments: [String] = []
        func bind(_ value: String) -> String {
            arguments.append(value)
            return placeholder(firstIndex + arguments.count - 1)
        }
        func list(_ values: [String]) -> String {
            values.isEmpty ? "NULL" : values.map(bind).joined(separator: ", ")
        }
        var parts = ["d.app_id = \(bind(appID))", "d.kind = \(bind(audience.kind.rawValue))", "d.state = 'active'"]
        if let zone = audience.timeZone {
            parts.append("COALESCE(d.time_zone, '') = \(bind(zone))")
        }
        switch audience.selection {
        case .everyone:
            break
        case .tokens(let tokens):
            parts.append("d.token IN (\(list(tokens)))")
        case .users(let users):
            parts.append("d.user_id IN (\(list(users)))")
        case .tags(let tags, .any):
            parts.append("EXISTS (SELECT 1 FROM device_tags t WHERE t.app_id = d.app_id AND t.token = d.token AND t.tag IN (\(list(tags))))")
        case .tags(let tags, .all):
            let distinct = Set(tags)
            parts.append(
                "(SELECT COUNT(*) FROM device_tags t WHERE t.app_id = d.app_id AND t.token = d.token AND t.tag IN (\(list(Array(distinct).sorted())))) = \(distinct.count)"
            )
        }
        self.condition = parts.joined(separator: " AND ")
        self.arguments = arguments
    }
}
