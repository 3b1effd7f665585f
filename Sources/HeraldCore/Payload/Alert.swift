/// `aps.alert`: a plain string (the body), or a dictionary of texts and localization keys.
public enum Alert: Sendable, Hashable {
    /// A string alert, shown as the body.
    case text(String)
    /// A dictionary alert.
    case content(AlertContent)

    /// Reads an alert from JSON; `nil` when the value is neither string nor object.
    public init?(json: JSONValue) {
        switch json {
        case .string(let string): self = .text(string)
        case .object(let object): self = .content(AlertContent(json: object))
        default: return nil
        }
    }

    /// The JSON form.
    public var jsonValue: JSONValue {
        switch self {
        case .text(let string): .string(string)
        case .content(let content): .object(content.json)
        }
    }

    /// True when the alert shows something: a non-empty title, subtitle or body, or a
    /// localization key for one of them (what the service extension's rule asks for).
    public var hasVisibleContent: Bool {
        switch self {
        case .text(let string): !string.isEmpty
        case .content(let content): content.hasVisibleContent
        }
    }
}

extension Alert: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
}

/// The dictionary form of `aps.alert`.
public struct AlertContent: Sendable, Hashable {
    /// The whole alert object.
    public var json: JSONObject

    public init(json: JSONObject = [:]) {
        self.json = json
    }

    public init(title: String? = nil, subtitle: String? = nil, body: String? = nil) {
        self.json = [:]
        self.title = title
        self.subtitle = subtitle
        self.body = body
    }

    public var title: String? {
        get { json.string(AlertKey.title) }
        set { json.set(AlertKey.title, newValue) }
    }

    public var subtitle: String? {
        get { json.string(AlertKey.subtitle) }
        set { json.set(AlertKey.subtitle, newValue) }
    }

    public var body: String? {
        get { json.string(AlertKey.body) }
        set { json.set(AlertKey.body, newValue) }
    }

    /// `launch-image`: an image in the app bundle shown while launching.
    public var launchImage: String? {
        get { json.string(AlertKey.launchImage) }
        set { json.set(AlertKey.launchImage, newValue) }
    }

    public var titleLocKey: String? {
        get { json.string(AlertKey.titleLocKey) }
        set { json.set(AlertKey.titleLocKey, newValue) }
    }

    public var titleLocArgs: [String]? {
        get { json.strings(AlertKey.titleLocArgs) }
        set { json.set(AlertKey.titleLocArgs, newValue) }
    }

    public var subtitleLocKey: String? {
        get { json.string(AlertKey.subtitleLocKey) }
        set { json.set(AlertKey.subtitleLocKey, newValue) }
    }

    public var subtitleLocArgs: [String]? {
        get { json.strings(AlertKey.subtitleLocArgs) }
        set { json.set(AlertKey.subtitleLocArgs, newValue) }
    }

    /// `loc-key`: the body's key in the app's `Localizable.strings`.
    public var locKey: String? {
        get { json.string(AlertKey.locKey) }
        set { json.set(AlertKey.locKey, newValue) }
    }

    public var locArgs: [String]? {
        get { json.strings(AlertKey.locArgs) }
        set { json.set(AlertKey.locArgs, newValue) }
    }

    /// True when a title, subtitle or body (given or by localization key) is non-empty.
    public var hasVisibleContent: Bool {
        [AlertKey.title, AlertKey.subtitle, AlertKey.body, AlertKey.titleLocKey, AlertKey.subtitleLocKey, AlertKey.locKey]
            .contains { !(json.string($0) ?? "").isEmpty }
    }
}
