import Foundation

/// The JSON body of an APNs error answer: `{"reason": "…"}`, plus `"timestamp"` (milliseconds
/// since 1970) with 410, the moment APNs learnt the token was no longer valid. The same JSON is the
/// debug data of a GOAWAY frame.
public struct APNsErrorBody: Sendable, Hashable {
    public var reason: APNsReason
    /// The 410 timestamp, in milliseconds since 1970.
    public var timestamp: Int64?

    public init(reason: APNsReason, timestamp: Int64? = nil) {
        self.reason = reason
        self.timestamp = timestamp
    }

    /// The 410 timestamp as a date.
    public var date: Date? {
        timestamp.map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) }
    }

    /// Reads an error body; `nil` when it is not a JSON object with a string `reason`.
    public init?(bytes: some Collection<UInt8>) {
        guard let value = try? JSONParser().parse(bytes), let reason = value["reason"]?.stringValue else {
            return nil
        }
        self.reason = APNsReason(rawValue: reason)
        self.timestamp = value["timestamp"]?.numberValue.flatMap { Int64($0.literal) ?? Int64(exactly: $0.doubleValue.rounded()) }
    }

    /// The bytes APNs sends: `{"reason":"Unregistered","timestamp":1700000000000}`.
    public var serialized: [UInt8] {
        var object: JSONObject = ["reason": .string(reason.rawValue)]
        if let timestamp { object["timestamp"] = .number(JSONNumber(validatedLiteral: String(timestamp))) }
        return JSONValue.object(object).serialized
    }
}
