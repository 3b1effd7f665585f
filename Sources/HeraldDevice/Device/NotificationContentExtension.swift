/// How a content extension answers an action (UNNotificationContentExtensionResponseOption).
public enum ContentExtensionAnswer: String, Sendable, Equatable, CaseIterable {
    /// The notification stays on screen; the app is not told.
    case doNotDismiss = "do-not-dismiss"
    /// The notification goes away; the app is not told.
    case dismiss
    /// The notification goes away and the action goes on to the app's delegate.
    case dismissAndForward = "dismiss-and-forward"
}

/// A notification content extension's view controller, as a pluggable handler.
public protocol NotificationContentExtension: Sendable {
    /// `didReceive(_ notification:)`: the notification's expanded view opens.
    func didReceive(_ notification: DeliveredNotification) async
    /// `didReceive(_:completionHandler:)` for an action tapped while the extension's view is
    /// shown; `nil` means the extension does not implement it (the action goes to the app).
    func didReceive(_ response: NotificationResponse) async -> ContentExtensionAnswer?
    /// The view controller's `title`, shown as the notification's title when the extension's
    /// plist sets `UNNotificationExtensionOverridesDefaultTitle`.
    func title(for notification: DeliveredNotification) async -> String?
}

extension NotificationContentExtension {
    public func didReceive(_ notification: DeliveredNotification) async {}
    public func title(for notification: DeliveredNotification) async -> String? { nil }
}

/// A content extension with fixed answers per action identifier, for scenarios.
public struct ScriptedContentExtension: NotificationContentExtension {
    public var answers: [String: ContentExtensionAnswer]
    /// The answer for actions not in `answers`; `nil` with empty `answers` means the response
    /// method is not implemented.
    public var otherwise: ContentExtensionAnswer?
    /// The view controller's title.
    public var title: String?

    public init(answers: [String: ContentExtensionAnswer] = [:], otherwise: ContentExtensionAnswer? = nil, title: String? = nil) {
        self.answers = answers
        self.otherwise = otherwise
        self.title = title
    }

    public func title(for notification: DeliveredNotification) async -> String? { title }

    public func didReceive(_ response: NotificationResponse) async -> ContentExtensionAnswer? {
        answers[response.actionIdentifier] ?? otherwise
    }
}
