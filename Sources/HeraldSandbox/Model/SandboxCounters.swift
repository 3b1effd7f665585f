/// How many requests the sandbox answered, by status and by reason.
public struct SandboxCounters: Sendable, Hashable, Codable {
    public var requests = 0
    public var byStatus: [String: Int] = [:]
    public var byReason: [String: Int] = [:]
    /// Notifications handed to online devices (at once or when they came back).
    public var delivered = 0
    /// Notifications kept for an offline device.
    public var stored = 0
    /// Notifications dropped: expiration 0 for an offline device, replaced while stored, or
    /// expired before the device came back.
    public var discarded = 0
    /// Provider tokens fully verified (signature and claims); a token a connection reuses is
    /// verified once.
    public var tokenVerifications = 0

    public init() {}

    mutating func count(status: Int, reason: String?) {
        requests += 1
        byStatus[String(status), default: 0] += 1
        if let reason { byReason[reason, default: 0] += 1 }
    }
}
