import Crypto
import Foundation
import HeraldCore

/// The `apns-id` of one notification to one token: derived from both, so a delivery sent again
/// after a crash carries the same id and the duplicate can be recognized.
enum DeliveryID {
    /// The first 16 bytes of SHA-256 over `"<notification id>/<token>"`, made a version 5 UUID.
    static func make(notificationID: String, token: String) -> NotificationID {
        var hash = SHA256()
        var notificationID = notificationID
        var token = token
        notificationID.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        withUnsafeBytes(of: UInt8(ascii: "/")) { hash.update(bufferPointer: $0) }
        token.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        let uuid = hash.finalize().withUnsafeBytes { digest in
            UUID(uuid: (
                digest[0], digest[1], digest[2], digest[3], digest[4], digest[5],
                (digest[6] & 0x0F) | 0x50,  // version 5 (name-based, SHA)
                digest[7],
                (digest[8] & 0x3F) | 0x80,  // RFC 4122 variant
                digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]
            ))
        }
        return NotificationID(uuid)
    }
}
