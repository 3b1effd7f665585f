/// A provider token's `iat`: the UNIX seconds it names and the form the token wrote them in,
/// read once for the verifier and for ``ProviderTokenReport``.
struct IssuedAt: Sendable, Hashable {
    /// How the token wrote `iat`.
    enum Form: Sendable, Hashable {
        /// A JSON integer (Apple's examples; node-apn, apns2 and gorush, aioapns, Pushy).
        case integer
        /// A JSON number with a fraction or an exponent (PyAPNs2 sends `time.time()`), read down
        /// to the second.
        case number
        /// A string of decimal digits (APNSwift has sent `"iat":"1700000000"` for years, and its
        /// users' notifications are delivered).
        case digitString
    }

    let seconds: Int64
    let form: Form

    /// The seconds a calendar can hold: 1970 to the end of year 9999, so date math cannot overflow.
    static let validSeconds: ClosedRange<Int64> = 0...253_402_300_799

    /// Reads `iat` in each form APNs accepts; `nil` for anything else (a sign, a string with a
    /// fraction, spaces) or for a moment outside ``validSeconds``.
    init?(_ value: JSONValue) {
        if let number = value.numberValue {
            if number.isIntegerLiteral {
                guard let whole = Int64(number.literal) else { return nil }
                (seconds, form) = (whole, .integer)
            } else {
                let value = number.doubleValue
                guard value.isFinite, value >= 0, value < Double(Self.validSeconds.upperBound + 1) else { return nil }
                (seconds, form) = (Int64(value.rounded(.down)), .number)
            }
        } else if let text = value.stringValue, !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let whole = Int64(text)
        {
            (seconds, form) = (whole, .digitString)
        } else {
            return nil
        }
        guard Self.validSeconds.contains(seconds) else { return nil }
    }

    /// For a whole number too large to be UNIX seconds now, the unit it probably is
    /// ("milliseconds", "microseconds", "nanoseconds"); `nil` otherwise.
    static func unitMistake(_ value: JSONValue) -> String? {
        let magnitude: Double
        if let number = value.numberValue {
            magnitude = number.doubleValue
        } else if let text = value.stringValue, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let parsed = Double(text) {
            magnitude = parsed
        } else {
            return nil
        }
        switch magnitude {
        case 1e11..<1e14: return "milliseconds"
        case 1e14..<1e17: return "microseconds"
        case 1e17..<1e20: return "nanoseconds"
        default: return nil
        }
    }
}
