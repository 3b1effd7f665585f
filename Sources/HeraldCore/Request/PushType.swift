/// `apns-push-type`: what kind of notification this is, which decides the topic suffix, the
/// payload size limit and the priorities APNs accepts.
public struct PushType: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let alert = PushType(rawValue: "alert")
    public static let background = PushType(rawValue: "background")
    public static let location = PushType(rawValue: "location")
    public static let voip = PushType(rawValue: "voip")
    public static let complication = PushType(rawValue: "complication")
    public static let fileProvider = PushType(rawValue: "fileprovider")
    public static let mdm = PushType(rawValue: "mdm")
    public static let liveActivity = PushType(rawValue: "liveactivity")
    public static let pushToTalk = PushType(rawValue: "pushtotalk")
    public static let widgets = PushType(rawValue: "widgets")
    public static let controls = PushType(rawValue: "controls")

    /// Every push type Apple defines.
    public static let known: [PushType] = [
        .alert, .background, .location, .voip, .complication, .fileProvider, .mdm, .liveActivity,
        .pushToTalk, .widgets, .controls,
    ]

    /// False for a value Apple does not define (APNs answers `InvalidPushType`).
    public var isKnown: Bool { Self.known.contains(self) }

    /// What must follow the bundle id in `apns-topic`, or `nil` for none (alert, background) and
    /// for mdm, whose topic is the certificate's UID.
    public var topicSuffix: String? {
        switch self {
        case .voip: ".voip"
        case .complication: ".complication"
        case .fileProvider: ".pushkit.fileprovider"
        case .location: ".location-query"
        case .liveActivity: ".push-type.liveactivity"
        case .pushToTalk: ".voip-ptt"
        case .widgets: ".push-type.widgets"
        case .controls: ".push-type.controls"
        default: nil
        }
    }

    /// The topic for an app's bundle id: the bundle id plus this type's suffix.
    public func topic(forBundleID bundleID: String) -> String {
        bundleID + (topicSuffix ?? "")
    }

    /// The bundle id a topic names once this type's suffix is removed.
    public func bundleID(fromTopic topic: String) -> String {
        if let suffix = topicSuffix, topic.hasSuffix(suffix) { return String(topic.dropLast(suffix.count)) }
        return topic
    }

    /// The bundle id in a topic with any push type's suffix removed.
    public static func bundleID(strippingAnySuffixFrom topic: String) -> String {
        let bytes = topic.utf8
        for suffix in suffixesLongestFirst where bytes.count > suffix.utf8.count && bytes.reversed().starts(with: suffix.utf8.reversed()) {
            return String(decoding: bytes.dropLast(suffix.utf8.count), as: UTF8.self)
        }
        return topic
    }

    /// Every known topic suffix, longest first (so `.push-type.liveactivity` wins over shorter ones).
    private static let suffixesLongestFirst = known.compactMap(\.topicSuffix).sorted { $0.utf8.count > $1.utf8.count }

    /// Largest payload APNs accepts for this type, in bytes: 5120 for VoIP, 4096 otherwise.
    public var maximumPayloadSize: Int { self == .voip ? 5120 : 4096 }

    /// True for types APNs accepts only with token (JWT) authentication.
    public var requiresTokenAuthentication: Bool { self == .liveActivity || self == .location }

    /// The priority to send this type with: 5 for background (10 is an error there), 10 otherwise.
    /// APNs itself assumes 10 whenever `apns-priority` is absent, so send it explicitly.
    public var recommendedPriority: Priority { self == .background ? .powerConsiderate : .immediate }

    public var description: String { rawValue }
}
