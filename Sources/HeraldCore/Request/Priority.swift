/// `apns-priority`: 10 sends at once, 5 lets the device save power, 1 is lowest.
public struct Priority: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// 10: deliver immediately (the default). Not allowed for background pushes.
    public static let immediate = Priority(rawValue: 10)
    /// 5: deliver considering the device's power; required for background pushes.
    public static let powerConsiderate = Priority(rawValue: 5)
    /// 1: lowest; may be delayed and delivered in bursts.
    public static let low = Priority(rawValue: 1)

    /// The priorities APNs accepts.
    public static let known: [Priority] = [.immediate, .powerConsiderate, .low]

    public var isKnown: Bool { Self.known.contains(self) }

    /// Parses the header value; `nil` unless it is exactly 10, 5 or 1.
    public init?(headerValue: String) {
        guard let value = Int(headerValue), Self.known.contains(Priority(rawValue: value)) else { return nil }
        self.rawValue = value
    }

    public var description: String { String(rawValue) }
}
