import Foundation

/// A PushKit notification's payload, as the registry's delegate gets it.
public class PKPushPayload: NSObject, @unchecked Sendable {
    /// The push type the notification was sent as.
    public let type: PKPushType
    /// The whole JSON payload the provider sent.
    public let dictionaryPayload: [AnyHashable: Any]

    init(type: PKPushType, dictionaryPayload: [AnyHashable: Any]) {
        self.type = type
        self.dictionaryPayload = dictionaryPayload
        super.init()
    }
}
