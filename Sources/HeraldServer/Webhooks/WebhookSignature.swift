import Crypto
import Foundation

/// The `Herald-Signature` header of a webhook POST: `t=<UNIX seconds>,v1=<hex HMAC-SHA256>`,
/// the HMAC keyed with the app's webhook secret over `"<t>.<body>"`. A receiver recomputes it
/// over the raw body, compares in constant time, and refuses a `t` far from its clock (replays).
public struct WebhookSignature: Sendable, Hashable {
    public static let headerName = "Herald-Signature"

    public var timestamp: Int64
    public var digest: String

    /// Signs `body` at `time` with `secret`.
    public init(body: some DataProtocol, secret: String, time: Date) {
        timestamp = Int64(time.timeIntervalSince1970.rounded(.down))
        digest = Self.digest(body: body, secret: secret, timestamp: timestamp)
    }

    /// The header's value.
    public var headerValue: String { "t=\(timestamp),v1=\(digest)" }

    /// Whether `header` is a valid signature of `body` with `secret`, made within `tolerance`
    /// of `now`.
    public static func verify(header: String, body: some DataProtocol, secret: String, now: Date, tolerance: TimeInterval = 300) -> Bool {
        var timestamp: Int64?
        var digests: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int64(pair[1]) }
            if pair[0] == "v1" { digests.append(pair[1]) }
        }
        guard let timestamp, abs(now.timeIntervalSince1970 - Double(timestamp)) <= tolerance else { return false }
        let expected = Array(digest(body: body, secret: secret, timestamp: timestamp).utf8)
        return digests.contains { candidate in
            let given = Array(candidate.utf8)
            guard given.count == expected.count else { return false }
            return zip(given, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
        }
    }

    private static func digest(body: some DataProtocol, secret: String, timestamp: Int64) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Data(secret.utf8)))
        hmac.update(data: Data("\(timestamp).".utf8))
        hmac.update(data: Data(body))
        return Data(hmac.finalize()).map { String(format: "%02x", $0) }.joined()
    }

    /// A new secret: `whsec_` and 32 random bytes in hex.
    public static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return "whsec_" + (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
