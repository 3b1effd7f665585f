/// The body of a notification request: a ``Payload`` built with the model, or raw JSON bytes
/// sent exactly as given (for payloads produced elsewhere).
public enum PayloadBody: Sendable, Hashable {
    case payload(Payload)
    case raw([UInt8])

    /// The bytes that go on the wire.
    public var bytes: [UInt8] {
        switch self {
        case .payload(let payload): payload.serialized
        case .raw(let bytes): bytes
        }
    }
}
