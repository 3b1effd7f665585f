// Seed 002's image service extension, ported from Objective-C to Swift: it rewrites the title,
// subtitle and body, downloads the image named by `aps.imageAbsoluteString` with URLSession, saves
// it with a `.png` extension and attaches it. The same file builds for iOS and, against
// HeraldUserNotifications, for Linux.

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
        // Copy what arrived and rework it.
        guard let bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent else {
            contentHandler(request.content)
            return
        }
        self.bestAttemptContent = bestAttemptContent
        bestAttemptContent.title = "\(bestAttemptContent.title) [modified]"
        bestAttemptContent.title = "我是标题"
        bestAttemptContent.subtitle = "我是子标题"
        bestAttemptContent.body = "来自徐不同"

        // The attachment's URL travels inside `aps`.
        let aps = bestAttemptContent.userInfo["aps"] as? [AnyHashable: Any]
        guard let imageURL = aps?["imageAbsoluteString"] as? String, !imageURL.isEmpty else {
            contentHandler(bestAttemptContent)
            return
        }
        loadAttachment(forURLString: imageURL, withType: "png") { attachment in
            if let attachment = attachment {
                bestAttemptContent.attachments = [attachment]
            }
            contentHandler(bestAttemptContent)
        }
    }

    /// Downloads the file, gives it the extension its type calls for and makes the attachment
    /// (nil when anything fails: the notification is then shown without it).
    func loadAttachment(forURLString urlString: String, withType type: String, completionHandler: @escaping (UNNotificationAttachment?) -> Void) {
        guard let attachmentURL = URL(string: urlString) else {
            completionHandler(nil)
            return
        }
        let fileExtension = fileExtension(forMediaType: type)
        let session = URLSession(configuration: .default)
        session.downloadTask(with: attachmentURL) { temporaryFileLocation, _, error in
            var attachment: UNNotificationAttachment?
            if let error = error {
                NSLog("%@", error.localizedDescription)
            } else if let temporaryFileLocation = temporaryFileLocation {
                let localURL = URL(fileURLWithPath: temporaryFileLocation.path + fileExtension)
                do {
                    try FileManager.default.moveItem(at: temporaryFileLocation, to: localURL)
                    attachment = try UNNotificationAttachment(identifier: "", url: localURL, options: nil)
                } catch {
                    NSLog("%@", error.localizedDescription)
                }
            }
            completionHandler(attachment)
        }.resume()
    }

    /// `.jpg`, `.mp4` or `.mp3` for the kinds, otherwise the type itself.
    func fileExtension(forMediaType type: String) -> String {
        var fileExtension = type
        if type == "image" { fileExtension = "jpg" }
        if type == "video" { fileExtension = "mp4" }
        if type == "audio" { fileExtension = "mp3" }
        return "." + fileExtension
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}
