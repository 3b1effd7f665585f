import HeraldCore

/// One answered request, for the one-line request log.
public struct SandboxRequestLog: Sendable, CustomStringConvertible {
    public let method: String
    public let path: String
    public let topic: String?
    public let pushType: String?
    public let status: Int
    public let reason: String?
    public let apnsID: String

    init(request: SandboxRequest, response: SandboxResponse) {
        method = request.method
        path = request.path
        topic = request.header(HeaderName.topic)
        pushType = request.header(HeaderName.pushType)
        status = response.status
        reason = response.reason?.rawValue
        apnsID = response.apnsID
    }

    /// `POST /3/device/740f47…bb78ad 200 alert com.example.app apns-id 1b2c…`, with the token shortened.
    public var description: String {
        var token = path
        if path.hasPrefix(PushNotification.pathPrefix) {
            let hex = path.dropFirst(PushNotification.pathPrefix.count)
            token = PushNotification.pathPrefix + (hex.count > 16 ? "\(hex.prefix(6))…\(hex.suffix(6))" : String(hex))
        }
        return "\(method) \(token) \(status)\(reason.map { " \($0)" } ?? "") \(pushType ?? "-") \(topic ?? "-") apns-id \(apnsID)"
    }
}
