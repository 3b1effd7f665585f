import Foundation

/// One step the simulated device took, in the transcript: what happened, to which app and
/// notification, with machine-readable details and a sentence for people.
public struct DeviceEvent: Sendable, Equatable, Codable, CustomStringConvertible {
    /// What kind of step it was. Scenarios match on the raw value.
    public enum Kind: String, Sendable, Equatable, Codable, CaseIterable {
        case installed
        case authorization
        case registered
        case stateChanged = "state-changed"
        case lockChanged = "lock-changed"
        /// The device's time zone, languages or Low Power Mode changed.
        case deviceChanged = "device-changed"
        case received
        /// APNs refused the push (the same rules as the sandbox); the device never sees it.
        case rejectedByAPNs = "rejected-by-apns"
        case localScheduled = "local-scheduled"
        case localRejected = "local-rejected"
        case localDropped = "local-dropped"
        case localRemoved = "local-removed"
        case localFired = "local-fired"
        case extensionSkipped = "extension-skipped"
        case extensionStarted = "extension-started"
        case extensionLog = "extension-log"
        case extensionFinished = "extension-finished"
        case extensionTimeWillExpire = "extension-time-will-expire"
        case extensionGaveNoAnswer = "extension-gave-no-answer"
        case attachmentAdded = "attachment-added"
        case attachmentRejected = "attachment-rejected"
        case communication
        case categoryNotFound = "category-not-found"
        case contentExtension = "content-extension"
        case plistProblem = "plist-problem"
        case interruptionLevel = "interruption-level"
        case presented
        case notPresented = "not-presented"
        case badge
        case sound
        case appWoken = "app-woken"
        case appNotWoken = "app-not-woken"
        case appLaunched = "app-launched"
        case willPresent = "will-present"
        case didReceive = "did-receive"
        case didReceiveRemoteNotification = "did-receive-remote-notification"
        case actionRefused = "action-refused"
        case contentExtensionResponse = "content-extension-response"
        case dismissed
        case replaced
        case categoriesSet = "categories-set"
        /// A VoIP push handed to PushKit (`pushRegistry(_:didReceiveIncomingPushWith:for:completion:)`).
        case pushKit = "push-kit"
        /// The system ended the app (a VoIP push that reported no call).
        case appTerminated = "app-terminated"
        /// The system kept a push from the app (VoIP delivery stopped, a background budget used up).
        case pushNotDelivered = "push-not-delivered"
        /// Something the app's own code did (HeraldUserNotifications).
        case appCode = "app-code"
    }

    /// Virtual time of the step.
    public var time: Date
    public var kind: Kind
    /// The app's bundle id.
    public var app: String?
    /// The notification's request identifier.
    public var notification: String?
    /// Values a scenario can match, e.g. `options: banner,list,sound`.
    public var details: [String: String]
    /// What happened and why, in a sentence.
    public var message: String

    public init(time: Date, kind: Kind, app: String?, notification: String?, details: [String: String] = [:], message: String) {
        self.time = time
        self.kind = kind
        self.app = app
        self.notification = notification
        self.details = details
        self.message = message
    }

    public var description: String {
        var line = "\(kind.rawValue)"
        if let notification { line += " [\(notification)]" }
        return line + ": " + message
    }
}
