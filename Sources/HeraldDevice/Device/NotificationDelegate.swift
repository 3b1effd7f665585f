import Foundation
import HeraldCore

/// The app's UNUserNotificationCenterDelegate and UIApplicationDelegate remote-notification
/// methods, as a pluggable handler. The device records every call in its transcript.
public protocol NotificationDelegate: Sendable {
    /// `userNotificationCenter(_:willPresent:)` for a notification arriving while the app is in
    /// the foreground. `nil` means the app does not implement it: nothing is shown.
    func willPresent(_ notification: DeliveredNotification) async -> PresentationOptions?
    /// `userNotificationCenter(_:didReceive:)`: the user acted on a notification. Returns false
    /// when the app does not implement it.
    func didReceive(_ response: NotificationResponse) async -> Bool
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` for a push with
    /// `content-available: 1`. Returns false when the app does not implement it.
    func didReceiveRemoteNotification(_ userInfo: JSONObject) async -> Bool
}

extension NotificationDelegate {
    public func didReceive(_ response: NotificationResponse) async -> Bool { true }
    public func didReceiveRemoteNotification(_ userInfo: JSONObject) async -> Bool { true }
}

/// A delegate whose `willPresent` answers fixed options (or is not implemented), for scenarios.
public struct ScriptedDelegate: NotificationDelegate {
    /// `nil`: `willPresent` is not implemented.
    public var foregroundOptions: PresentationOptions?

    public init(foregroundOptions: PresentationOptions?) {
        self.foregroundOptions = foregroundOptions
    }

    public func willPresent(_ notification: DeliveredNotification) async -> PresentationOptions? {
        foregroundOptions
    }
}

/// The user's answer to a notification (UNNotificationResponse / UNTextInputNotificationResponse).
public struct NotificationResponse: Sendable, Equatable {
    public var notification: DeliveredNotification
    public var actionIdentifier: String
    /// The typed text of a text-input action.
    public var userText: String?

    public init(notification: DeliveredNotification, actionIdentifier: String, userText: String? = nil) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
        self.userText = userText
    }
}

/// A delivered notification (UNNotification): the request and when it arrived.
public struct DeliveredNotification: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        case local
        /// A push, with its apns-id when known.
        case remote(apnsID: String?)
    }

    public var request: NotificationRequest
    public var date: Date
    public var source: Source
    /// The payload of a push (its userInfo); the content's userInfo for a local one.
    public var userInfo: JSONObject

    public var identifier: String { request.identifier }
    public var content: NotificationContent { request.content }
}
