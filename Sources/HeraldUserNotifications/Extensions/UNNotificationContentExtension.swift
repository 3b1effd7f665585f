import Foundation

/// How a content extension answers an action (Apple's `UNNotificationContentExtensionResponseOption`).
public enum UNNotificationContentExtensionResponseOption: UInt, Sendable {
    /// The notification stays; the app is not told.
    case doNotDismiss = 0
    /// The notification goes away; the app is not told.
    case dismiss = 1
    /// The notification goes away and the action goes on to the app's delegate.
    case dismissAndForwardAction = 2
}

/// The media button a content extension shows (Apple's `UNNotificationContentExtensionMediaPlayPauseButtonType`).
public enum UNNotificationContentExtensionMediaPlayPauseButtonType: UInt, Sendable {
    case none = 0
    case `default` = 1
    case overlay = 2
}

/// A notification content extension's view controller (Apple's `UNNotificationContentExtension`):
/// it gets the notification when the user expands it, and, when it implements
/// `didReceive(_:completionHandler:)`, the actions tapped while its view is shown. As on iOS,
/// the principal class is usually a ``UIViewController``, and its code runs on the main actor.
@MainActor
public protocol UNNotificationContentExtension: NSObjectProtocol {
    /// The notification to show (and later ones of the same thread while the view is open).
    func didReceive(_ notification: UNNotification)
    /// An action tapped while the extension's view is shown; answer how to go on.
    func didReceive(
        _ response: UNNotificationResponse, completionHandler completion: @escaping @Sendable (UNNotificationContentExtensionResponseOption) -> Void
    )
    var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { get }
    func mediaPlay()
    func mediaPause()
}

extension UNNotificationContentExtension {
    public func didReceive(
        _ response: UNNotificationResponse, completionHandler completion: @escaping @Sendable (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        CallProbe.markUnimplemented()
        completion(.dismissAndForwardAction)
    }

    public var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { .none }
    public func mediaPlay() {}
    public func mediaPause() {}
}
