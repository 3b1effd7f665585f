import Foundation
import HeraldCore
import HeraldDevice

/// A notification to schedule or that arrived (Apple's `UNNotificationRequest`): identifier,
/// content and trigger (`nil` delivers at once; a push has a ``UNPushNotificationTrigger``).
public class UNNotificationRequest: NSObject, NSCopying, @unchecked Sendable {
    public let identifier: String
    public let content: UNNotificationContent
    public let trigger: UNNotificationTrigger?

    /// The content is copied: changing a mutable content afterwards does not change the request.
    public convenience init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.init(identifier: identifier, copying: content, trigger: trigger)
    }

    private init(identifier: String, copying content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.identifier = identifier
        self.content = UNNotificationContent(fields: content.fields)
        self.trigger = trigger
        super.init()
    }

    /// A request the device holds, for app code (and the simulator's shipped extensions).
    package convenience init(device request: NotificationRequest, userInfo: HeraldCore.JSONObject? = nil, app: AppBundle?, remote: Bool) {
        let content = UNNotificationContent(fields: UNNotificationContent.fields(from: request.content, userInfo: userInfo, app: app))
        let trigger: UNNotificationTrigger? = remote ? UNPushNotificationTrigger(repeats: false) : request.trigger.map(UNNotificationTrigger.make(device:))
        self.init(identifier: request.identifier, copying: content, trigger: trigger)
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    var deviceRequest: NotificationRequest {
        NotificationRequest(identifier: identifier, content: content.deviceContent, trigger: trigger?.deviceTrigger)
    }

    public override var description: String {
        "<UNNotificationRequest: identifier: \(identifier), content: \(content), trigger: \(trigger.map { "\($0)" } ?? "nil")>"
    }
}
