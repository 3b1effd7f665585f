import Crypto
import Foundation
import HeraldCore

/// Decrypts an end-to-end encrypted alert (seed 002: decrypt within the 30 s, then show it).
///
/// The payload carries `encrypted`: base64 of an AES-GCM sealed box (12-byte nonce, ciphertext,
/// 16-byte tag) whose plaintext is a JSON object with `title`, `subtitle` and `body`, or plain
/// text for the body. The visible alert in `aps` is the placeholder shown if decryption fails.
public struct DecryptStep: ServiceExtensionStep {
    public var key: SymmetricKey
    public var field: String

    public init(key: SymmetricKey, field: String = "encrypted") {
        self.key = key
        self.field = field
    }

    public var name: String { "decrypt" }

    public func apply(_ context: ServiceExtensionContext) async {
        guard let text = context.payload[custom: field]?.stringValue else {
            context.log("no \(field) in the payload; nothing to decrypt")
            return
        }
        guard let combined = Data(base64Encoded: text) else {
            context.log("\(field) is not base64; the placeholder alert is shown")
            return
        }
        let plaintext: Data
        do {
            plaintext = try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key)
        } catch {
            context.log("decryption failed (wrong key or damaged data); the placeholder alert is shown")
            return
        }
        if let object = try? JSONParser().parse(Array(plaintext)).objectValue {
            context.updateBestAttempt { content in
                if let title = object["title"]?.stringValue { content.title = title }
                if let subtitle = object["subtitle"]?.stringValue { content.subtitle = subtitle }
                if let body = object["body"]?.stringValue { content.body = body }
            }
        } else {
            context.updateBestAttempt { $0.body = String(decoding: plaintext, as: UTF8.self) }
        }
        context.log("decrypted \(combined.count) bytes of \(field)")
    }

    /// Encrypts an alert the way this step expects it (for servers and tests).
    public static func seal(title: String? = nil, subtitle: String? = nil, body: String, key: SymmetricKey) throws -> String {
        var object = JSONObject()
        if let title { object["title"] = .string(title) }
        if let subtitle { object["subtitle"] = .string(subtitle) }
        object["body"] = .string(body)
        let sealed = try AES.GCM.seal(Data(JSONValue.object(object).serialized), using: key)
        guard let combined = sealed.combined else { throw DeviceError.invalid("AES-GCM gave no combined form (the nonce is not 12 bytes)") }
        return combined.base64EncodedString()
    }
}
