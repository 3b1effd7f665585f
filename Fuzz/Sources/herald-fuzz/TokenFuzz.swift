import HeraldCore

@testable import HeraldCore

/// Device tokens and provider tokens (JWT) as text: they parse or are refused with a reason.
enum TokenFuzz {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let token = try? DeviceToken(parsing: text) {
            // A token that parses prints as hex that parses to the same token.
            precondition((try? DeviceToken(parsing: token.hex)) == token, "device token \(text) does not round-trip")
        }
        _ = DecodedJWT.decode(text)
    }
}
