import Foundation
import HeraldCore

/// Turns the notification into a communication notification with the sender's avatar, as seed
/// 003 does: download `sender_image_url`, make the sender (named by the title) with that image,
/// build an `INSendMessageIntent` (group name from the subtitle), donate it and update the content.
/// When the app is not set up for it, or the download fails, the plain content stays.
public struct CommunicationStep: ServiceExtensionStep {
    public var imageKey: String
    /// A payload key with the conversation identifier, if the server sends one.
    public var conversationKey: String

    public init(imageKey: String = "sender_image_url", conversationKey: String = "conversation_id") {
        self.imageKey = imageKey
        self.conversationKey = conversationKey
    }

    public var name: String { "communication" }

    public func apply(_ context: ServiceExtensionContext) async {
        guard let text = context.payload[custom: imageKey]?.stringValue else {
            context.log("no \(imageKey) in the payload; not a communication notification")
            return
        }
        var image: Data?
        if let url = URL(string: text), url.scheme != nil {
            do {
                image = try await context.download(url).data
            } catch {
                context.log("downloading the avatar failed: \(error); the plain notification is shown")
                return
            }
        } else {
            context.log("\(imageKey) is not a URL; the plain notification is shown")
            return
        }
        let content = context.bestAttemptContent
        let communication = CommunicationContext(
            intent: CommunicationContext.sendMessageIntent, senderName: content.title, senderImage: image,
            conversationIdentifier: context.payload[custom: conversationKey]?.stringValue,
            groupName: content.subtitle.isEmpty ? nil : content.subtitle
        )
        if let refusal = communication.refusal(for: context.app) {
            context.log("content.updating(from: intent) failed: \(refusal); the plain notification is shown")
            return
        }
        context.updateBestAttempt { $0.communication = communication }
        context.log("updated from \(communication.intent): sender \"\(communication.senderName)\" with a \(image?.count ?? 0)-byte avatar")
    }
}
