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
        // Kept only when it is a moment a calendar can hold (0 to year 9999): a hostile or broken
        // server's value is dropped, never trapped on.
        self.timestamp = value["timestamp"]?.numberValue
            .flatMap { Int64($0.literal) ?? Self.wholeMilliseconds($0.doubleValue) }
            .flatMap { Self.validMilliseconds.contains($0) ? $0 : nil }
    }

    /// The milliseconds a 410 timestamp may be: 1970 to the end of year 9999.
    public static let validMilliseconds: ClosedRange<Int64> = 0...253_402_300_799_999

    /// `date` in milliseconds since 1970, as APNs writes its 410 timestamp.
    public static func milliseconds(_ date: Date) -> Int64 {
        wholeMilliseconds(date.timeIntervalSince1970 * 1000) ?? 0
    }

    private static func wholeMilliseconds(_ value: Double) -> Int64? {
        guard value.isFinite, value > -9.2e18, value < 9.2e18 else { return nil }
        return Int64(value.rounded())
    }

    /// The bytes APNs sends: `{"reason":"Unregistered","timestamp":1700000000000}`.
    public var serialized: [UInt8] {
        var object: JSONObject = ["reason": .string(reason.rawValue)]
        if let timestamp { object["timestamp"] = .number(JSONNumber(validatedLiteral: String(timestamp))) }
        return JSONValue.object(object).serialized
    }
}
