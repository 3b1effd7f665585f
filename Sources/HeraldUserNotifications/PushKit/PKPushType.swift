/// The kinds of PushKit notification a registry asks for (PushKit's `PKPushType`).
public struct PKPushType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Voice-over-IP call invitations (`apns-push-type: voip`, topic `BUNDLE.voip`).
    public static let voIP = PKPushType(rawValue: "PKPushTypeVoIP")
    /// File Provider updates.
    public static let fileProvider = PKPushType(rawValue: "PKPushTypeFileProvider")
}
