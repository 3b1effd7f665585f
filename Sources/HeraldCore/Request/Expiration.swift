import Foundation

/// `apns-expiration`: how long APNs keeps the notification for an offline device.
public enum Expiration: Sendable, Hashable, Codable, CustomStringConvertible {
    /// No header: APNs stores it under its default policy (up to 30 days).
    case none
    /// `0`: deliver only if the device is reachable now; never stored.
    case immediately
    /// Keep it until this moment (written as UNIX seconds).
    case at(Date)

    /// The header value, or `nil` for ``none``.
    public var headerValue: String? {
        switch self {
        case .none: nil
        case .immediately: "0"
        // At least 1: "0" means deliver-now-or-never, which a date must never turn into.
        case .at(let date): String(Self.seconds(date))
        }
    }

    /// The date as whole UNIX seconds, at least 1 and at most `Int64.max` (a date beyond what
    /// an integer holds must not stop the process).
    static func seconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, seconds < 9.2e18 else { return seconds.isNaN ? 1 : Int64.max }
        return max(1, Int64(seconds))
    }

    /// Parses a header value: UNIX seconds, `0` meaning ``immediately``; `nil` if not a
    /// non-negative integer (APNs answers `BadExpirationDate`).
    public init?(headerValue: String) {
        guard let seconds = Int64(headerValue), seconds >= 0 else { return nil }
        self = seconds == 0 ? .immediately : .at(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// True when a notification with this expiration may no longer be delivered at `now`.
    public func hasExpired(at now: Date) -> Bool {
        if case .at(let date) = self { return date < now }
        return false
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .immediately: "0 (deliver now or never)"
        case .at(let date): "\(headerValue!) (\(date))"
        }
    }
}
