import Foundation

/// What `content.updating(from: intent)` adds to a communication notification: the sender (name
/// and avatar) shown in place of the app icon, and the conversation (seed 003).
public struct CommunicationContext: Sendable, Equatable {
    /// `INSendMessageIntent` or `INStartCallIntent`.
    public var intent: String
    public var senderName: String
    /// The avatar's image data (INImage is made from data, not a file URL).
    public var senderImage: Data?
    public var conversationIdentifier: String?
    /// `speakableGroupName`: the group conversation's name, shown for group messages.
    public var groupName: String?

    public init(intent: String, senderName: String, senderImage: Data?, conversationIdentifier: String? = nil, groupName: String? = nil) {
        self.intent = intent
        self.senderName = senderName
        self.senderImage = senderImage
        self.conversationIdentifier = conversationIdentifier
        self.groupName = groupName
    }

    public static let sendMessageIntent = "INSendMessageIntent"
    public static let startCallIntent = "INStartCallIntent"

    /// Why iOS refuses to update content from this intent for the app (nil when it may): the
    /// app needs the Communication Notifications capability, and the intent must be listed in
    /// `NSUserActivityTypes` of the app's **and** the service extension's Info.plist.
    public func refusal(for app: AppBundle) -> String? {
        guard app.hasEntitlement(Entitlement.communicationNotifications) else {
            return "the app lacks the Communication Notifications capability (\(Entitlement.communicationNotifications))"
        }
        guard app.userActivityTypes.contains(intent) else {
            return "the app's Info.plist does not list \(intent) in NSUserActivityTypes"
        }
        guard let serviceExtension = app.serviceExtension, serviceExtension.userActivityTypes.contains(intent) else {
            return "the service extension's Info.plist does not list \(intent) in NSUserActivityTypes"
        }
        return nil
    }
}
