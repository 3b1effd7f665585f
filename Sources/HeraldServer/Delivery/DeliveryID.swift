import Crypto
import Foundation
import HeraldCore

/// The `apns-id` of one notification to one token: derived from both, so a delivery sent again
/// after a crash carries the same id and the duplicate can be recognized.
enum DeliveryID {
    static func make(notificationID: String, token: String) -> NotificationID {
        var bytes = Array(SHA256.hash(data: Array("\(notificationID)/\(token)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50  // version 5 (name-based, SHA)
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        let uuid = UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
        return NotificationID(uuid)
    }
}
