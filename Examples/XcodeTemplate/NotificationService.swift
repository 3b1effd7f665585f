// A notification service extension as Xcode's "Notification Service Extension" template makes it,
// unchanged but for the import block: on Linux it compiles against HeraldUserNotifications and
// runs in the simulated iPhone (Tests/HeraldUserNotificationsTests/XcodeTemplateTests.swift).

#if canImport(UserNotifications)
import UserNotifications
#else
import HeraldUserNotifications
#endif

class NotificationService: UNNotificationServiceExtension {

    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        self.contentHandler = contentHandler
        bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)

        if let bestAttemptContent = bestAttemptContent {
            // Change the content here.
            bestAttemptContent.title = "\(bestAttemptContent.title) [modified]"

            contentHandler(bestAttemptContent)
        }
    }

    override func serviceExtensionTimeWillExpire() {
        // The system is about to end the extension: hand over the best attempt now, or the
        // original content is shown.
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }

}
