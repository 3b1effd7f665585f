// Seed 003's communication-notification service extension, ported from Objective-C to Swift: it
// downloads the sender's avatar from `sender_image_url`, makes the sender (named by the title),
// builds an INSendMessageIntent for the conversation (named by the subtitle), donates it and
// updates the content from it, so the avatar replaces the app icon. Any failure shows the plain
// notification. The app needs the Communication Notifications capability and INSendMessageIntent
// in NSUserActivityTypes of the app's and this extension's Info.plist.

#if canImport(UserNotifications)
import UserNotifications
#else
import HeraldUserNotifications
#endif
#if canImport(Intents)
import Intents
#endif

class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    /// Downloads the image and hands over its bytes (nil when the download failed).
    func downloadINPerson(withURLString urlString: String, completionHandler: @escaping (Data?) -> Void) {
        guard let imageURL = URL(string: urlString) else {
            completionHandler(nil)
            return
        }
        let session = URLSession(configuration: .default)
        session.downloadTask(with: imageURL) { temporaryFileLocation, _, error in
            var data: Data?
            if let error = error {
                NSLog("%@", error.localizedDescription)
            } else if let temporaryFileLocation = temporaryFileLocation {
                let localURL = URL(fileURLWithPath: temporaryFileLocation.path + ".png")
                try? FileManager.default.moveItem(at: temporaryFileLocation, to: localURL)
                data = try? Data(contentsOf: localURL)
            }
            completionHandler(data)
        }.resume()
    }

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        self.contentHandler = contentHandler
        guard let bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent else {
            contentHandler(request.content)
            return
        }
        self.bestAttemptContent = bestAttemptContent
        // Only to see that the extension ran; remove before shipping.
        bestAttemptContent.title = "\(bestAttemptContent.title) [modified]"

        let title = bestAttemptContent.title
        let subtitle = bestAttemptContent.subtitle
        let body = bestAttemptContent.body
        guard let senderImageURLString = bestAttemptContent.userInfo["sender_image_url"] as? String else {
            contentHandler(bestAttemptContent)
            return
        }
        downloadINPerson(withURLString: senderImageURLString) { data in
            guard let data = data else {
                // The download failed: the plain notification.
                contentHandler(bestAttemptContent)
                return
            }
            let avatar = INImage(imageData: data)
            let messageSender = INPerson(
                personHandle: INPersonHandle(value: "", type: .unknown), nameComponents: PersonNameComponents(),
                displayName: title, image: avatar, contactIdentifier: nil, customIdentifier: nil, isMe: false, suggestionType: .none
            )
            let me = INPerson(
                personHandle: INPersonHandle(value: "", type: .unknown), nameComponents: nil,
                displayName: nil, image: nil, contactIdentifier: nil, customIdentifier: nil, isMe: true, suggestionType: .none
            )
            let intent = INSendMessageIntent(
                recipients: [me, messageSender], outgoingMessageType: .outgoingMessageText, content: body,
                speakableGroupName: INSpeakableString(spokenPhrase: subtitle), conversationIdentifier: nil, serviceName: nil,
                sender: messageSender, attachments: nil
            )
            intent.setImage(avatar, forParameterNamed: \.speakableGroupName)
            let interaction = INInteraction(intent: intent, response: nil)
            interaction.direction = .incoming
            interaction.donate(completion: nil)
            do {
                contentHandler(try request.content.updating(from: intent))
            } catch {
                // Not set up for communication notifications: the plain notification.
                contentHandler(bestAttemptContent)
            }
        }
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}
