import Foundation
import HeraldDevice

/// A delivered notification (Apple's `UNNotification`): its request and when it arrived.
public class UNNotification: NSObject, @unchecked Sendable {
    public let date: Date
    public let request: UNNotificationRequest

    init(date: Date, request: UNNotificationRequest) {
        self.date = date
        self.request = request
        super.init()
    }

    convenience init(device delivered: DeliveredNotification, app: AppBundle?) {
        let remote = if case .remote = delivered.source { true } else { false }
        // The content's userInfo: the payload as the service extension left it.
        self.init(date: delivered.date, request: UNNotificationRequest(device: delivered.request, app: app, remote: remote))
    }

    public override var description: String { "<UNNotification: date: \(date), request: \(request)>" }
}

/// The action identifier of a tap on the notification itself.
public let UNNotificationDefaultActionIdentifier = NotificationAction.defaultActionIdentifier
/// The action identifier of a dismissal (sent only for categories with `customDismissAction`).
public let UNNotificationDismissActionIdentifier = NotificationAction.dismissActionIdentifier

/// What the user did with a notification (Apple's `UNNotificationResponse`).
public class UNNotificationResponse: NSObject, @unchecked Sendable {
    public let notification: UNNotification
    /// An action's identifier, ``UNNotificationDefaultActionIdentifier`` or
    /// ``UNNotificationDismissActionIdentifier``.
    public let actionIdentifier: String

    init(notification: UNNotification, actionIdentifier: String) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
        super.init()
    }

    static func make(device response: NotificationResponse, app: AppBundle?) -> UNNotificationResponse {
        let notification = UNNotification(device: response.notification, app: app)
        if let text = response.userText {
            return UNTextInputNotificationResponse(notification: notification, actionIdentifier: response.actionIdentifier, userText: text)
        }
        return UNNotificationResponse(notification: notification, actionIdentifier: response.actionIdentifier)
    }
}

/// The response to a text-input action, with what the user typed (Apple's
/// `UNTextInputNotificationResponse`).
public class UNTextInputNotificationResponse: UNNotificationResponse, @unchecked Sendable {
    public let userText: String

    init(notification: UNNotification, actionIdentifier: String, userText: String) {
        self.userText = userText
        super.init(notification: notification, actionIdentifier: actionIdentifier)
    }
}
