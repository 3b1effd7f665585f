extension PushType {
    /// What the payload of a push type must hold, from Apple's documentation for each type.
    public enum PayloadRule: Sendable, Hashable {
        /// A JSON object with an `aps` dictionary: alert, background, location, liveactivity,
        /// widgets and controls.
        case apsDictionary
        /// `{"mdm": "<PushMagic>"}` and nothing else, no `aps` (Apple, "Sending MDM commands to
        /// a device": "only include the PushMagic string as the value of the mdm key").
        case mdmPushMagic
        /// `{"container-identifier": "<identifier>", "domain": "<domain identifier>"}`, no `aps`
        /// (Apple, `NSFileProviderManager`: pushes "of the form { "container-identifier": … }").
        case fileProviderContainer
        /// Any JSON object, handed to the app's PushKit delegate: `aps` is optional (voip,
        /// complication, pushtotalk).
        case pushKitData
    }

    /// The payload rule of this push type (an unknown type is checked as an `aps` payload).
    public var payloadRule: PayloadRule {
        switch self {
        case .mdm: .mdmPushMagic
        case .fileProvider: .fileProviderContainer
        case .voip, .complication, .pushToTalk: .pushKitData
        default: .apsDictionary
        }
    }

    /// The key of an MDM payload.
    public static let mdmKey = "mdm"
    /// The key of a File Provider payload that names the changed container.
    public static let containerIdentifierKey = "container-identifier"
}
