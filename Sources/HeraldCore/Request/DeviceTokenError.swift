/// Why a string is not a device token, said so a person can fix it.
public enum DeviceTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case simulatorUDID
    case dataDescription
    case firebaseToken
    case base64
    case invalidCharacter(Character, position: Int)
    case oddLength(Int)
    case tooLong(bytes: Int)

    public var description: String {
        switch self {
        case .empty:
            "the device token is empty; expected the hex string the app got from didRegisterForRemoteNotificationsWithDeviceToken"
        case .simulatorUDID:
            "this looks like a simulator UDID, not a device token (it has the 8-4-4-4-12 form of a UUID); a device token is hex bytes such as 740f4707bebcf74f9b7c25d48e335894…"
        case .dataDescription:
            "this is NSData's description since iOS 13 ({length = …, bytes = 0x…}), which leaves bytes out; convert the token with deviceToken.map { String(format: \"%02x\", $0) }.joined()"
        case .firebaseToken:
            "this looks like a Firebase Cloud Messaging registration token, not an APNs device token; send it through FCM, or log the APNs token in the app"
        case .base64:
            "this looks like base64; APNs device tokens are written as hex digits (0-9, a-f), e.g. deviceToken.map { String(format: \"%02x\", $0) }.joined()"
        case .invalidCharacter(let character, let position):
            "character \(String(character).debugDescription) at position \(position + 1) is not a hexadecimal digit; a device token contains only 0-9 and a-f (spaces and <…> are tolerated)"
        case .oddLength(let count):
            "the device token has \(count) hex digits, an odd number; every byte is two digits, so a digit is missing or extra"
        case .tooLong(let bytes):
            "the device token is \(bytes) bytes; Herald accepts up to \(DeviceToken.maximumByteCount) bytes"
        }
    }
}
