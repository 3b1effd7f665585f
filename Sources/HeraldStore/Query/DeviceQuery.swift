import HeraldCore

/// Which of an app's devices to list, a page at a time in token order. Every condition given
/// must hold; none given lists every registered device.
public struct DeviceQuery: Sendable, Hashable {
    /// Only these tokens (lowercase hex).
    public var tokens: [String]?
    public var userID: String?
    /// Only devices with this tag.
    public var tag: String?
    public var kind: DeviceKind?
    public var environment: APNsEnvironment?
    public var state: DeviceState?
    /// The page starts after this token (the last one of the previous page).
    public var after: String?
    /// Devices per page.
    public var limit: Int

    public init(
        tokens: [String]? = nil, userID: String? = nil, tag: String? = nil, kind: DeviceKind? = nil, environment: APNsEnvironment? = nil,
        state: DeviceState? = nil, after: String? = nil, limit: Int = 100
    ) {
        self.tokens = tokens
        self.userID = userID
        self.tag = tag
        self.kind = kind
        self.environment = environment
        self.state = state
        self.after = after
        self.limit = limit
    }
}

/// A ``DeviceQuery`` as a SQL condition on `devices d`, for both backends (like
/// ``AudienceFilter``, only the placeholders differ).
struct DeviceQueryFilter {
    /// What to select from: `devices d`, or with a tag the tag's rows joined to their devices
    /// (read in token order from the tags' primary key, not by walking every device).
    var source = "devices d"
    /// The condition, without `WHERE`.
    var condition: String
    /// The order of a page.
    var order = "d.token"
    /// The values of its placeholders, in order.
    var arguments: [String]

    init(appID: String, query: DeviceQuery, placeholder: (Int) -> String) {
        var arguments: [String] = []
        func bind(_ value: String) -> String {
            arguments.append(value)
            return placeholder(arguments.count)
        }
        // SQLite keeps a deleted registration's row (marked `deleted`) for its history.
        var parts = ["d.app_id = \(bind(appID))", "d.state <> 'deleted'"]
        if let tokens = query.tokens {
            parts.append(tokens.isEmpty ? "1 = 0" : "d.token IN (\(tokens.map(bind).joined(separator: ", ")))")
        }
        if let user = query.userID { parts.append("d.user_id = \(bind(user))") }
        var tokenColumn = "d.token"
        if let tag = query.tag {
            source = "device_tags t JOIN devices d ON d.app_id = t.app_id AND d.token = t.token"
            parts.append("t.app_id = \(bind(appID)) AND t.tag = \(bind(tag))")
            tokenColumn = "t.token"
            order = "t.token"
        }
        if let kind = query.kind { parts.append("d.kind = \(bind(kind.rawValue))") }
        if let environment = query.environment { parts.append("d.environment = \(bind(environment.rawValue))") }
        if let state = query.state { parts.append("d.state = \(bind(state.rawValue))") }
        if let after = query.after { parts.append("\(tokenColumn) > \(bind(after))") }
        condition = parts.joined(separator: " AND ")
        self.arguments = arguments
    }
}
