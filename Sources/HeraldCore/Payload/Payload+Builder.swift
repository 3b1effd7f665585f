extension Payload {
    /// An alert notification with a title, optional subtitle and body.
    ///
    /// ```swift
    /// Payload.alert(title: "Hi", body: "You have mail").badge(3).sound(.default)
    /// ```
    public static func alert(title: String? = nil, subtitle: String? = nil, body: String) -> Payload {
        var aps = APS()
        if title == nil && subtitle == nil {
            aps.alert = .text(body)
        } else {
            aps.alert = .content(AlertContent(title: title, subtitle: subtitle, body: body))
        }
        return Payload(aps: aps)
    }

    /// A background (silent) notification: `content-available: 1` and nothing visible.
    public static func background() -> Payload {
        var aps = APS()
        aps.contentAvailable = true
        return Payload(aps: aps)
    }

    /// A Live Activity push with its event, content state and timestamp (UNIX seconds).
    public static func liveActivity(_ event: LiveActivityEvent, contentState: JSONObject, timestamp: Int) -> Payload {
        var aps = APS()
        aps.timestamp = timestamp
        aps.event = event
        aps.contentState = contentState
        return Payload(aps: aps)
    }

    /// Returns a copy with `aps` changed by `change`.
    public func withAPS(_ change: (inout APS) -> Void) -> Payload {
        var copy = self
        var aps = copy.aps
        change(&aps)
        copy.aps = aps
        return copy
    }

    public func badge(_ value: Int) -> Payload { withAPS { $0.badge = value } }

    public func sound(_ value: Sound) -> Payload { withAPS { $0.sound = value } }

    public func category(_ value: String) -> Payload { withAPS { $0.category = value } }

    public func threadID(_ value: String) -> Payload { withAPS { $0.threadID = value } }

    public func mutableContent(_ value: Bool = true) -> Payload { withAPS { $0.mutableContent = value } }

    public func contentAvailable(_ value: Bool = true) -> Payload { withAPS { $0.contentAvailable = value } }

    public func interruptionLevel(_ value: InterruptionLevel) -> Payload { withAPS { $0.interruptionLevel = value } }

    public func relevanceScore(_ value: Double) -> Payload { withAPS { $0.relevanceScore = value } }

    public func targetContentID(_ value: String) -> Payload { withAPS { $0.targetContentID = value } }

    /// Returns a copy with a custom key beside `aps`.
    public func custom(_ key: String, _ value: JSONValue) -> Payload {
        var copy = self
        copy[custom: key] = value
        return copy
    }

    /// Returns a copy with media for a service extension to download, in the `media` dictionary
    /// seed 000 uses (`{"url": …, "type": …}`), and `mutable-content: 1` set.
    public func media(url: String, type: String) -> Payload {
        custom("media", ["url": .string(url), "type": .string(type)]).mutableContent()
    }
}
