import Foundation

/// The principal class of a notification service extension (Apple's
/// `UNNotificationServiceExtension`): subclass it, change the content in
/// `didReceive(_:withContentHandler:)` and call the handler within 30 s; when time runs out,
/// `serviceExtensionTimeWillExpire()` is the last chance to deliver a best attempt.
///
/// In the simulated device a new instance handles each notification, as iOS may start a new
/// process for each, and every rule iOS applies holds: the 30 s, one content handler call, the
/// attachment checks afterwards, the original content when nothing is delivered.
open class UNNotificationServiceExtension: NSObject {
    public override init() {
        super.init()
    }

    /// Delivers the content unchanged; override it.
    open func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        contentHandler(request.content)
    }

    /// Called when the 30 s are up and the content handler was not called.
    open func serviceExtensionTimeWillExpire() {}
}
