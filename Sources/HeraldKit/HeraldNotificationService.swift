#if canImport(UserNotifications)
import UserNotifications
#else
import HeraldUserNotifications
#endif
#if canImport(Intents)
import Intents
#endif
import Foundation
import HeraldCore

/// A notification service extension that does what `herald serve`'s payloads ask, within the
/// system's 30 s, and always delivers its best attempt:
///
/// 1. opens an end-to-end sealed alert (`herald-sealed`, see ``SealedAlert``) with the device's
///    key from ``keyStore``; when it cannot, the payload's visible alert (the server's fallback
///    text) stays;
/// 2. downloads `media` (`{"url", "type"}`) and attaches it with the file extension its type
///    gives, within the attachment limits;
/// 3. turns a `sender` (`{"name", "imageUrl", "conversationId", "group"}`, or seed 003's
///    `sender_image_url` with the title as the name) into a communication notification: an
///    `INSendMessageIntent` with the avatar, donated, then `updating(from:)`.
///
/// Use it as the extension's principal class, or subclass it: override ``keyStore`` to read the
/// key from your App Group, and ``process(_:content:)`` to add steps (call `super`).
open class HeraldNotificationService: UNNotificationServiceExtension {
    private let lock = NSLock()
    private var contentHandler: ((UNNotificationContent) -> Void)?
    /// What will be shown if time runs out: the content as the steps have changed it so far.
    public private(set) var bestAttemptContent: UNMutableNotificationContent?

    /// Where the device's encryption key is; `nil` (the default) leaves sealed alerts closed.
    open var keyStore: (any HeraldKeyStore)? { nil }

    /// How long a download may take, in seconds (the system allows 30 for everything).
    open var downloadTimeout: TimeInterval { 25 }

    open override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else {
            contentHandler(request.content)
            return
        }
        lock.lock()
        self.contentHandler = contentHandler
        bestAttemptContent = content
        lock.unlock()
        Task {
            let result = await self.process(request, content: content)
            self.deliver(result)
        }
    }

    open override func serviceExtensionTimeWillExpire() {
        lock.lock()
        let best = bestAttemptContent
        lock.unlock()
        if let best { deliver(best) }
    }

    /// Runs the steps on `content` (the best attempt) and returns what to show.
    open func process(_ request: UNNotificationRequest, content: UNMutableNotificationContent) async -> UNNotificationContent {
        openSealedAlert(in: content)
        await attachMedia(to: content)
        return await communicationContent(for: content) ?? content
    }

    /// Hands the content to the system once; later calls do nothing.
    public func deliver(_ content: UNNotificationContent) {
        lock.lock()
        let handler = contentHandler
        contentHandler = nil
        lock.unlock()
        handler?(content)
    }

    // MARK: Steps

    /// Replaces the visible alert with the sealed one, when it opens with the device's key.
    open func openSealedAlert(in content: UNMutableNotificationContent) {
        guard let sealed = content.userInfo[SealedAlert.payloadKey] as? String else { return }
        do {
            guard let key = try keyStore?.privateKey() else {
                NSLog("herald: a sealed alert arrived but the extension has no key store or no key; the fallback text is shown")
                return
            }
            let alert = try SealedAlert.open(sealed, with: key)
            if let title = alert.title { content.title = title }
            if let subtitle = alert.subtitle { content.subtitle = subtitle }
            if let body = alert.body { content.body = body }
        } catch {
            NSLog("herald: %@; the fallback text is shown", "\(error)")
        }
    }

    /// Downloads `media.url` and attaches it.
    open func attachMedia(to content: UNMutableNotificationContent) async {
        guard let media = content.userInfo["media"] as? [AnyHashable: Any], let text = media["url"] as? String,
              let url = URL(string: text), url.scheme != nil else { return }
        guard let (data, response) = await download(url) else { return }
        let fileExtension = AttachmentKind.fileExtension(
            type: media["type"] as? String, url: text, contentType: (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
        )
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString + (fileExtension.map { "." + $0 } ?? ""))
        do {
            try data.write(to: file)
            content.attachments = [try UNNotificationAttachment(identifier: "media", url: file, options: nil)]
        } catch {
            NSLog("herald: the media from %@ cannot be attached: %@", text, error.localizedDescription)
        }
    }

    /// The communication notification for `sender`, or `nil` to show the content as it is.
    open func communicationContent(for content: UNMutableNotificationContent) async -> UNNotificationContent? {
        let sender = content.userInfo["sender"] as? [AnyHashable: Any]
        let imageText = sender?["imageUrl"] as? String ?? content.userInfo["sender_image_url"] as? String
        guard sender != nil || imageText != nil else { return nil }
        var avatar: INImage?
        if let imageText, let url = URL(string: imageText), url.scheme != nil {
            guard let (data, _) = await download(url) else { return nil }
            avatar = INImage(imageData: data)
        }
        let name = sender?["name"] as? String ?? content.title
        let person = INPerson(
            personHandle: INPersonHandle(value: sender?["handle"] as? String ?? name, type: .unknown), nameComponents: nil,
            displayName: name, image: avatar, contactIdentifier: nil, customIdentifier: sender?["id"] as? String
        )
        let group = (sender?["group"] as? String).map { INSpeakableString(spokenPhrase: $0) }
        let intent = INSendMessageIntent(
            recipients: nil, outgoingMessageType: .outgoingMessageText, content: content.body, speakableGroupName: group,
            conversationIdentifier: sender?["conversationId"] as? String, serviceName: nil, sender: person, attachments: nil
        )
        let interaction = INInteraction(intent: intent, response: nil)
        interaction.direction = .incoming
        try? await interaction.donate()
        do {
            return try content.updating(from: intent)
        } catch {
            NSLog("herald: %@; the plain notification is shown", error.localizedDescription)
            return nil
        }
    }

    /// Downloads with ``downloadTimeout``; `nil` on any failure or a non-2xx answer.
    open func download(_ url: URL) async -> (Data, URLResponse)? {
        var request = URLRequest(url: url)
        request.timeoutInterval = downloadTimeout
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                NSLog("herald: %@ answered HTTP %d", url.absoluteString, http.statusCode)
                return nil
            }
            return (data, response)
        } catch {
            NSLog("herald: downloading %@ failed: %@", url.absoluteString, error.localizedDescription)
            return nil
        }
    }
}
