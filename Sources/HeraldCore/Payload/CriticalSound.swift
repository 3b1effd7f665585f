/// The dictionary form of `aps.sound`, used for critical alerts.
public struct CriticalSound: Sendable, Hashable {
    /// The whole sound object.
    public var json: JSONObject

    public init(json: JSONObject) {
        self.json = json
    }

    /// A critical sound: `name` from the app bundle (or `"default"`), `volume` 0…1.
    public init(name: String = "default", volume: Double = 1) {
        self.json = [:]
        self.isCritical = true
        self.name = name
        self.volume = volume
    }

    /// `critical: 1`.
    public var isCritical: Bool {
        get { json.flag("critical") }
        set { json.setFlag("critical", newValue) }
    }

    public var name: String? {
        get { json.string("name") }
        set { json.set("name", newValue) }
    }

    /// 0 (silent) to 1 (full volume).
    public var volume: Double? {
        get { json.double("volume") }
        set { json.set("volume", newValue) }
    }
}
