/// The HTTP/2 header names of an APNs request and response (lowercase, as HTTP/2 requires).
public enum HeaderName {
    public static let authorization = "authorization"
    public static let pushType = "apns-push-type"
    public static let id = "apns-id"
    public static let expiration = "apns-expiration"
    public static let priority = "apns-priority"
    public static let topic = "apns-topic"
    public static let collapseID = "apns-collapse-id"
    /// Response only, development environment: the id to look a notification up in Apple's
    /// delivery log.
    public static let uniqueID = "apns-unique-id"

    /// The request headers APNs defines.
    public static let request: [String] = [authorization, pushType, id, expiration, priority, topic, collapseID]
}
