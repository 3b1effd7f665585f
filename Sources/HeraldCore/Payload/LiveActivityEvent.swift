/// `aps.event` of a Live Activity push.
public struct LiveActivityEvent: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Starts an activity (sent to a push-to-start token).
    public static let start = LiveActivityEvent(rawValue: "start")
    /// Updates the activity's content state.
    public static let update = LiveActivityEvent(rawValue: "update")
    /// Ends the activity.
    public static let end = LiveActivityEvent(rawValue: "end")

    /// The events Apple defines.
    public static let known: [LiveActivityEvent] = [.start, .update, .end]

    public var isKnown: Bool { Self.known.contains(self) }

    public var description: String { rawValue }
}
