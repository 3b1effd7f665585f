import Foundation
import HeraldDevice

/// What can turn a notification into a communication notification (Apple's
/// `UNNotificationContentProviding`): `INSendMessageIntent` and `INStartCallIntent`.
public protocol UNNotificationContentProviding: NSObjectProtocol {}

/// An action done through Intents (Apple's `INIntent`).
open class INIntent: NSObject, @unchecked Sendable {
    /// Images set for parameters (the sender's avatar, a group's picture).
    var parameterImages: [String: INImage] = [:]

    public override init() {
        super.init()
    }
}

/// A message's kind (Apple's `INOutgoingMessageType`).
public enum INOutgoingMessageType: Int, Sendable {
    case unknown = 0
    case outgoingMessageText = 1
    case outgoingMessageAudio = 2
}

/// What an intent's handling answered (Apple's `INIntentResponse`).
open class INIntentResponse: NSObject, @unchecked Sendable {}

/// A message sent to the user (Apple's `INSendMessageIntent`): with it,
/// `UNNotificationContent.updating(from:)` shows the sender's name and avatar (seed 003).
public class INSendMessageIntent: INIntent, UNNotificationContentProviding, @unchecked Sendable {
    public let recipients: [INPerson]?
    public let outgoingMessageType: INOutgoingMessageType
    public let content: String?
    public let speakableGroupName: INSpeakableString?
    public let conversationIdentifier: String?
    public let serviceName: String?
    public let sender: INPerson?

    public init(
        recipients: [INPerson]?, outgoingMessageType: INOutgoingMessageType, content: String?, speakableGroupName: INSpeakableString?,
        conversationIdentifier: String?, serviceName: String?, sender: INPerson?, attachments: [Any]?
    ) {
        self.recipients = recipients
        self.outgoingMessageType = outgoingMessageType
        self.content = content
        self.speakableGroupName = speakableGroupName
        self.conversationIdentifier = conversationIdentifier
        self.serviceName = serviceName
        self.sender = sender
        super.init()
    }

    public convenience init(
        recipients: [INPerson]?, outgoingMessageType: INOutgoingMessageType, content: String?, speakableGroupName: INSpeakableString?,
        conversationIdentifier: String?, serviceName: String?, sender: INPerson?
    ) {
        self.init(recipients: recipients, outgoingMessageType: outgoingMessageType, content: content, speakableGroupName: speakableGroupName,
                  conversationIdentifier: conversationIdentifier, serviceName: serviceName, sender: sender, attachments: nil)
    }

    /// Sets the image shown for a parameter: `\.sender` or `\.speakableGroupName`.
    public func setImage<Value>(_ image: INImage?, forParameterNamed parameterName: KeyPath<INSendMessageIntent, Value>) {
        let name = parameterName == \INSendMessageIntent.speakableGroupName ? "speakableGroupName" : "sender"
        parameterImages[name] = image
    }

    /// The image set for a parameter, if any.
    public func image<Value>(forParameterNamed parameterName: KeyPath<INSendMessageIntent, Value>) -> INImage? {
        parameterImages[parameterName == \INSendMessageIntent.speakableGroupName ? "speakableGroupName" : "sender"]
    }

    /// What the device shows for this intent.
    var communicationContext: CommunicationContext {
        let avatar = parameterImages["sender"] ?? sender?.image
        return CommunicationContext(
            intent: CommunicationContext.sendMessageIntent, senderName: sender?.displayName ?? "", senderImage: avatar?.data,
            conversationIdentifier: conversationIdentifier, groupName: speakableGroupName?.spokenPhrase
        )
    }
}
