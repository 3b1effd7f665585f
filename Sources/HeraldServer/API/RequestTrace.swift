import Foundation
import Synchronization

/// What the request log says about the request being answered, gathered while it is: its id,
/// and the app whose key it carried once that key is known. The middleware makes one per request
/// and binds it to the task (``current``); ``APIKeys`` fills in the app.
final class RequestTrace: Sendable {
    /// The request this task answers, if any.
    @TaskLocal static var current: RequestTrace?

    /// The caller's `X-Request-Id` when it is a usable one, else a new random id.
    let id: String
    private let app = Mutex<String?>(nil)

    init(id: String) {
        self.id = id
    }

    /// The app of the key the request carried (`admin` for the admin key).
    var appID: String? {
        get { app.withLock { $0 } }
        set { app.withLock { $0 = newValue } }
    }

    /// The id to use for a request that came with `given`: kept when it is 1 to 128 visible
    /// ASCII characters (so it cannot forge log lines), else a new one.
    static func id(given: String?) -> String {
        if let given, (1...128).contains(given.utf8.count), given.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return given }
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
