/// One notification to one device: everything a provider needs to make an APNs request.
///
/// ```swift
/// let notification = PushNotification(
///     deviceToken: try DeviceToken(parsing: token),
///     body: .payload(.alert(title: "Hello", body: "World")),
///     headers: NotificationHeaders(pushType: .alert, topic: "com.example.app")
/// )
/// notification.path // "/3/device/740f…"
/// ```
public struct PushNotification: Sendable, Hashable {
    public var deviceToken: DeviceToken
    public var body: PayloadBody
    public var headers: NotificationHeaders

    public init(deviceToken: DeviceToken, body: PayloadBody, headers: NotificationHeaders = NotificationHeaders()) {
        self.deviceToken = deviceToken
        self.body = body
        self.headers = headers
    }

    /// The request path: `/3/device/<token hex>`.
    public var path: String { Self.pathPrefix + deviceToken.hex }

    /// The path every notification request starts with.
    public static let pathPrefix = "/3/device/"
}
