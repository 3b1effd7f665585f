// Seed 000's notification service extension, ported from Objective-C to Swift. Within its 30 s
// it marks the title, registers the QiShare category with its four actions, sets that category,
// downloads the media named by `media.url` (its file extension from `media.type`), attaches it,
// and keeps the bytes in userInfo["image"] for the content extension.

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
        guard let bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent else {
            contentHandler(request.content)
            return
        }
        self.bestAttemptContent = bestAttemptContent
        bestAttemptContent.title = "\(bestAttemptContent.title) [ServiceExtension modified]"

        // The actions shown when the notification is expanded.
        let actionA = UNNotificationAction(identifier: "ActionA", title: "A_Required", options: [.authenticationRequired])
        let actionB = UNNotificationAction(identifier: "ActionB", title: "B_Destructive", options: [.destructive])
        let actionC = UNNotificationAction(identifier: "ActionC", title: "C_Foreground", options: [.foreground])
        let actionD = UNTextInputNotificationAction(
            identifier: "ActionD", title: "D_InputDestructive", options: [.destructive],
            textInputButtonTitle: "Send", textInputPlaceholder: "input some words here ..."
        )
        let category = UNNotificationCategory(
            identifier: "QiShareCategoryIdentifier", actions: [actionA, actionB, actionC, actionD],
            intentIdentifiers: ["ActionA", "ActionB", "ActionC", "ActionD"], options: [.customDismissAction]
        )
        UNUserNotificationCenter.current().setNotificationCategories([category])
        bestAttemptContent.categoryIdentifier = "QiShareCategoryIdentifier"

        // Download the media, if the payload names one.
        let media = bestAttemptContent.userInfo["media"] as? [AnyHashable: Any]
        guard let mediaURL = media?["url"] as? String, !mediaURL.isEmpty else {
            contentHandler(bestAttemptContent)
            return
        }
        let mediaType = media?["type"] as? String ?? ""
        loadAttachment(forURLString: mediaURL, withType: mediaType) { attachment in
            if let attachment = attachment {
                bestAttemptContent.attachments = [attachment]
            }
            contentHandler(bestAttemptContent)
        }
    }

    func loadAttachment(forURLString urlString: String, withType type: String, completionHandler: @escaping (UNNotificationAttachment?) -> Void) {
        guard let attachmentURL = URL(string: urlString) else {
            completionHandler(nil)
            return
        }
        let fileExtension = fileExtension(withMediaType: type)
        let session = URLSession(configuration: .default)
        session.downloadTask(with: attachmentURL) { temporaryFileLocation, _, error in
            var attachment: UNNotificationAttachment?
            if let error = error {
                NSLog("loading the media failed: %@", error.localizedDescription)
            } else if let temporaryFileLocation = temporaryFileLocation {
                let localURL = URL(fileURLWithPath: temporaryFileLocation.path + fileExtension)
                do {
                    try FileManager.default.moveItem(at: temporaryFileLocation, to: localURL)
                    // For the content extension's image view.
                    if let bestAttemptContent = self.bestAttemptContent {
                        var userInfo = bestAttemptContent.userInfo
                        userInfo["image"] = try Data(contentsOf: localURL)
                        bestAttemptContent.userInfo = userInfo
                    }
                    attachment = try UNNotificationAttachment(identifier: "QiShareCategoryIdentifier", url: localURL, options: nil)
                } catch {
                    NSLog("%@", error.localizedDescription)
                }
            }
            completionHandler(attachment)
        }.resume()
    }

    func fileExtension(withMediaType mediaType: String) -> String {
        var fileExtension = mediaType
        if mediaType == "image" { fileExtension = "jpg" }
        if mediaType == "video" { fileExtension = "mp4" }
        if mediaType == "audio" { fileExtension = "mp3" }
        return "." + fileExtension
    }

    override func serviceExtensionTimeWillExpire() {
        // Time is up: show what there is so far.
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}
