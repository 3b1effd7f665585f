/// A notification service extension (UNNotificationServiceExtension) as a pluggable Swift
/// handler.
///
/// `didReceive` works on `context.bestAttemptContent` and calls `context.contentHandler(_:)`
/// when done. The device gives it 30 s of virtual time (``ServiceExtensionContext/spend(_:)`` and
/// downloads use it up); when time runs out, `serviceExtensionTimeWillExpire` may still deliver
/// the best attempt, and if nothing is ever delivered the original content is shown.
public protocol NotificationServiceExtension: Sendable {
    /// A short name for the transcript, e.g. `download-media`.
    var name: String { get }
    func didReceive(_ context: ServiceExtensionContext) async
    /// Called once the 30 s are up and `contentHandler` was not called in time.
    func serviceExtensionTimeWillExpire(_ context: ServiceExtensionContext)
    /// `nil` for an extension that measures its work in virtual time (``ServiceExtensionContext/spend(_:)``,
    /// ``ServiceExtensionContext/download(_:)``) and is done when `didReceive` returns. A number
    /// for the developer's own code, which works in real time and may call its content handler
    /// after `didReceive` returned (from a download's completion handler): each real second
    /// counts for this many virtual seconds, and the 30 s end after `30 / scale` real seconds.
    var virtualSecondsPerRealSecond: Double? { get }
}

extension NotificationServiceExtension {
    public var virtualSecondsPerRealSecond: Double? { nil }

    /// What Xcode's template does: deliver the best attempt.
    public func serviceExtensionTimeWillExpire(_ context: ServiceExtensionContext) {
        context.contentHandler(context.bestAttemptContent)
    }
}
