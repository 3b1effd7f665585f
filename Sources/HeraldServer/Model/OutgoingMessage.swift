import Foundation
import HeraldCore
import HeraldStore

/// What a notification sends, as stored with it: the serialized payload per locale and the
/// headers. Workers decode it once per notification.
struct OutgoingMessage: Codable, Sendable, Hashable {
    /// The payload JSON for devices whose locale has no variant.
    var fallback: String
    /// Canonical language tag → payload JSON.
    var variants: [String: String]
    var headers: NotificationHeaders
    var kind: DeviceKind
    /// The alert sealed per device at send time (`seal` in the request); the payloads above
    /// carry only the fallback text. Devices without a key get the fallback alone.
    var seal: SealedAlert?

    func encoded() -> Data {
        (try? JSONEncoder().encode(self)) ?? Data()
    }

    static func decode(_ data: Data) throws -> OutgoingMessage {
        try JSONDecoder().decode(OutgoingMessage.self, from: data)
    }
}
