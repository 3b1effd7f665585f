/// `aps.sound`: a sound file in the app bundle (or `"default"`), or a critical-alert dictionary.
public enum Sound: Sendable, Hashable {
    /// A sound file name such as `"ping.caf"`, or `"default"`.
    case named(String)
    /// The critical-alert form `{"critical": 1, "name": …, "volume": …}`.
    case critical(CriticalSound)

    /// The system's default sound.
    public static let `default` = Sound.named("default")

    /// Reads a sound from JSON; `nil` when the value is neither string nor object.
    public init?(json: JSONValue) {
        switch json {
        case .string(let name): self = .named(name)
        case .object(let object): self = .critical(CriticalSound(json: object))
        default: return nil
        }
    }

    /// The JSON form.
    public var jsonValue: JSONValue {
        switch self {
        case .named(let name): .string(name)
        case .critical(let sound): .object(sound.json)
        }
    }
}

extension Sound: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .named(value) }
}
