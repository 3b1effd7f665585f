import HeraldCore

/// A request body holding APNs payloads as JSON objects. `JSONDecoder` neither keeps an
/// object's key order nor a number's exact text, so after decoding, ``JSONBody`` hands the body
/// as ``JSONParser`` read it back, and each payload is taken from there: what is sent is what
/// was written, as with `payloadText`.
protocol PayloadsAsWritten {
    /// Replaces each decoded payload with the same one from `body`, as written.
    mutating func keepPayloads(asWritten body: JSONObject)
}

extension Payload {
    /// The payload at `key` of `object` when it is an object, else `decoded`.
    static func asWritten(_ object: JSONObject?, _ key: String, else decoded: Payload?) -> Payload? {
        guard decoded != nil, let written = object?[key]?.objectValue else { return decoded }
        return Payload(json: written)
    }
}

extension SendRequest: PayloadsAsWritten {
    mutating func keepPayloads(asWritten body: JSONObject) {
        payload = .asWritten(body, "payload", else: payload)
        locales = Self.locales(locales, asWritten: body["locales"]?.objectValue)
    }

    /// Each language's payload as written.
    static func locales(_ locales: [String: Content]?, asWritten written: JSONObject?) -> [String: Content]? {
        guard var locales, let written else { return locales }
        for (tag, content) in locales {
            locales[tag]?.payload = .asWritten(written[tag]?.objectValue, "payload", else: content.payload)
        }
        return locales
    }
}

extension LintRequest: PayloadsAsWritten {
    mutating func keepPayloads(asWritten body: JSONObject) {
        payload = .asWritten(body, "payload", else: payload)
        locales = SendRequest.locales(locales, asWritten: body["locales"]?.objectValue)
    }
}

extension ScheduleInput: PayloadsAsWritten {
    mutating func keepPayloads(asWritten body: JSONObject) {
        if let notification = body["notification"]?.objectValue { self.notification.keepPayloads(asWritten: notification) }
    }
}
