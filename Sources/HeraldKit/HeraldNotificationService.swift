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
/// 2. downloads `media` (`{"url", "type"}`, or seed 002's `imageAbsoluteString`) and attaches
///    it with the file extension its type gives, within the attachment limits;
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

    /// Where the media URL is looked for, in turn: `media.url` (with its `type` beside it), then
    /// seed 002's `aps.imageAbsoluteString` and `imageAbsoluteString`.
    open var mediaKeyPaths: [String] { ["media.url", "aps.imageAbsoluteString", "imageAbsoluteString"] }

    /// The identifier of the media attachment.
    open var attachmentIdentifier: String { "media" }

    /// Writes what a step did or why it did nothing (the system log by default).
    open func log(_ message: String) {
        NSLog("herald: %@", message)
    }

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
        if content.userInfo[SealedAlert.payloadKey] != nil { openSealedAlert(in: content) }
        if Self.locate(mediaKeyPaths, in: content.userInfo) != nil { await attachMedia(to: content) }
        guard content.userInfo["sender"] != nil || content.userInfo["sender_image_url"] != nil else { return content }
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
        guard let sealed = content.userInfo[SealedAlert.payloadKey] as? String else {
            log("no \(SealedAlert.payloadKey) in the payload; nothing to open")
            return
        }
        do {
            guard let key = try keyStore?.privateKey() else {
                log("a sealed alert arrived but there is no device key; the fallback text is shown")
                return
            }
            let alert = try SealedAlert.open(sealed, with: key)
            if let title = alert.title { content.title = title }
            if let subtitle = alert.subtitle { content.subtitle = subtitle }
            if let body = alert.body { content.body = body }
            log("opened the sealed alert")
        } catch {
            log("\(error); the fallback text is shown")
        }
    }

    /// Downloads the media at the first of ``mediaKeyPaths`` holding a URL and attaches it,
    /// saved with the file extension its `type`, the answer's Content-Type or the URL gives.
    open func attachMedia(to content: UNMutableNotificationContent) async {
        guard let (path, text, type) = Self.locate(mediaKeyPaths, in: content.userInfo) else {
            log("no media URL at \(mediaKeyPaths.joined(separator: ", ")); nothing to download")
            return
        }
        guard let url = URL(string: text), url.scheme != nil else {
            log("\(path) is \"\(text)\", which is not a URL (percent-encode spaces as %20); nothing downloaded")
            return
        }
        guard let (data, response) = await download(url) else { return }
        let fileExtension = AttachmentKind.fileExtension(
            type: type, url: text, contentType: (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
        )
        let name = String(UUID().uuidString.prefix(8)) + (fileExtension.map { "." + $0 } ?? "")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        do {
            try data.write(to: file)
        } catch {
            log("saving the download failed: \(error.localizedDescription)")
            return
        }
        log("downloaded \(data.count) bytes from \(text) as \(name)")
        do {
            content.attachments = [try UNNotificationAttachment(identifier: attachmentIdentifier, url: file, options: nil)]
        } catch {
            log("the download cannot be attached: \(error.localizedDescription)")
        }
    }

    /// The first key path holding a non-empty string, with the `type` beside it.
    static func locate(_ keyPaths: [String], in userInfo: [AnyHashable: Any]) -> (path: String, url: String, type: String?)? {
        for path in keyPaths {
            var value: Any? = userInfo
            var parent: [AnyHashable: Any]?
            for part in path.split(separator: ".") {
                parent = value as? [AnyHashable: Any]
                value = parent?[String(part)]
            }
            guard let url = value as? String, !url.isEmpty else { continue }
            return (path, url, path.contains(".") ? parent?["type"] as? String : nil)
        }
        return nil
    }

    /// The communication notification for `sender`, or `nil` to show the content as it is.
    open func communicationContent(for content: UNMutableNotificationContent) async -> UNNotificationContent? {
        let sender = content.userInfo["sender"] as? [AnyHashable: Any]
        let imageText = sender?["imageUrl"] as? String ?? content.userInfo["sender_image_url"] as? String
        guard sender != nil || imageText != nil else {
            log("no sender or sender_image_url in the payload; not a communication notification")
            return nil
        }
        var avatar: INImage?
        if let imageText {
            guard let url = URL(string: imageText), url.scheme != nil else {
                log("the sender's image \"\(imageText)\" is not a URL; the plain notification is shown")
                return nil
            }
            guard let (data, _) = await download(url) else {
                log("the avatar could not be downloaded; the plain notification is shown")
                return nil
            }
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
            conversationIdentifier: sender?["conversationId"] as? String ?? content.userInfo["conversation_id"] as? String, serviceName: nil,
            sender: person, attachments: nil
        )
        let interaction = INInteraction(intent: intent, response: nil)
        interaction.direction = .incoming
        try? await interaction.donate()
        do {
            let updated = try content.updating(from: intent)
            log("updated from INSendMessageIntent: sender \"\(name)\"" + (avatar == nil ? " without an avatar" : " with an avatar"))
            return updated
        } catch {
            log("content.updating(from: intent) failed: \(error.localizedDescription); the plain notification is shown")
            return nil
        }
    }

    /// Downloads with ``downloadTimeout``; `nil` on any failure or a non-2xx answer.
    open func download(_ url: URL) async -> (Data, URLResponse)? {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            log("\(url.absoluteString) is not an http(s) URL; nothing downloaded")
            return nil
        }
        var request = URLRequest(url: url)
        request.timeoutInterval = downloadTimeout
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                log("downloading \(url.absoluteString) failed: it answered HTTP \(http.statusCode)")
                return nil
            }
            return (data, response)
        } catch {
            log("downloading \(url.absoluteString) failed: \(error.localizedDescription)")
            return nil
        }
    }
}
