/// The APNs headers of one notification, as typed values.
///
/// ```swift
/// let headers = NotificationHeaders(pushType: .alert, topic: "com.example.app", collapseID: try CollapseID("score"))
/// headers.fields(authorization: token.authorization) // [("authorization", …), ("apns-push-type", "alert"), …]
/// ```
public struct NotificationHeaders: Sendable, Hashable, Codable {
    public var pushType: PushType?
    public var topic: String?
    public var priority: Priority?
    public var expiration: Expiration
    public var collapseID: CollapseID?
    public var id: NotificationID?

    public init(
        pushType: PushType? = nil,
        topic: String? = nil,
        priority: Priority? = nil,
        expiration: Expiration = .none,
        collapseID: CollapseID? = nil,
        id: NotificationID? = nil
    ) {
        self.pushType = pushType
        self.topic = topic
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.id = id
    }

    /// The priority APNs applies: the one given, or 10 (APNs' default, whatever the push type).
    public var effectivePriority: Priority {
        priority ?? .immediate
    }

    /// The header fields in the order Herald sends them; `authorization` first when given.
    /// Absent values produce no header. Names are lowercase as HTTP/2 requires.
    public func fields(authorization: String? = nil) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        if let authorization { fields.append((HeaderName.authorization, authorization)) }
        if let pushType { fields.append((HeaderName.pushType, pushType.rawValue)) }
        if let topic { fields.append((HeaderName.topic, topic)) }
        if let priority { fields.append((HeaderName.priority, String(priority.rawValue))) }
        if let expiration = expiration.headerValue { fields.append((HeaderName.expiration, expiration)) }
        if let collapseID { fields.append((HeaderName.collapseID, collapseID.value)) }
        if let id { fields.append((HeaderName.id, id.headerValue)) }
        return fields
    }
}
