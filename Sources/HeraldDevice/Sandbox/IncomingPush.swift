import HeraldCore

/// A push the sandbox delivered to this device's token, as its event stream announces it.
public struct IncomingPush: Sendable {
    public var token: String
    /// The apns-topic (the bundle id, plus a suffix for some push types).
    public var topic: String
    public var payload: Payload
    public var headers: PushHeaders

    /// The app the push is for.
    public var bundleID: String { PushType.bundleID(strippingAnySuffixFrom: topic) }

    /// Reads one event's `data:` JSON (the sandbox's notification record).
    init(eventData: String) throws(DeviceError) {
        guard let object = try? JSONParser().parse(eventData).objectValue,
              let token = object["token"]?.stringValue, let topic = object["topic"]?.stringValue,
              let payloadText = object["payload"]?.stringValue
        else { throw .invalid("the sandbox sent an event that is not a notification: \(eventData.prefix(200))") }
        do {
            payload = try Payload(decoding: payloadText)
        } catch {
            throw .invalid("the sandbox delivered a payload that is not a JSON object: \(error)")
        }
        self.token = token
        self.topic = topic
        headers = PushHeaders(
            apnsID: object["id"]?.stringValue, collapseID: object["collapseID"]?.stringValue,
            pushType: object["pushType"]?.stringValue.map(PushType.init(rawValue:)), priority: object["priority"]?.intValue
        )
    }
}
