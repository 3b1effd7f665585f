/// Which of an app's devices a notification goes to. Only active devices of the notification's
/// kind are ever chosen.
public struct Audience: Sendable, Hashable, Codable {
    /// How a list of tags matches.
    public enum TagMatch: String, Sendable, Hashable, Codable {
        /// A device with at least one of the tags.
        case any
        /// A device with every tag.
        case all
    }

    /// The selection.
    public enum Selection: Sendable, Hashable, Codable {
        case tokens([String])
        case users([String])
        case tags([String], match: TagMatch)
        case everyone
    }

    public var selection: Selection
    /// The kind of token (from the push type).
    public var kind: DeviceKind
    /// Only devices in this time zone (wall-clock schedules fire per zone); `""` means devices
    /// without a time zone.
    public var timeZone: String?

    public init(_ selection: Selection, kind: DeviceKind = .alert, timeZone: String? = nil) {
        self.selection = selection
        self.kind = kind
        self.timeZone = timeZone
    }
}
