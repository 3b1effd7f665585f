import HeraldCore

/// One injected error answer: an HTTP status and the APNs reason that goes with it.
///
/// Written as a status (`503`, which answers that status's usual reason), a reason
/// (`"Shutdown"`, whose status comes from Apple's table) or both (`"503 Shutdown"`). Any pair
/// Apple documents can be injected; `503 Shutdown` and the other reasons that close the
/// connection are answered and followed by GOAWAY, as APNs does.
public struct FaultAnswer: Sendable, Hashable, Codable, CustomStringConvertible {
    public let status: Int
    public let reason: APNsReason

    /// The reason a bare status answers.
    public static let usualReasons: [Int: APNsReason] = [
        429: .tooManyRequests, 500: .internalServerError, 503: .serviceUnavailable,
    ]

    /// What a fault may be written as, for error messages.
    public static let allowedForms = "a status (429, 500, 503), a documented reason such as \"Shutdown\", or both, such as \"503 Shutdown\""

    /// A documented pair; the reason's status must be `status`.
    public init(status: Int, reason given: APNsReason) throws(SandboxError) {
        // Apple's reasons only (Herald's own BadPayload is not one), in the spelling APNs sends.
        let reason = given.canonical
        guard APNsReason.known.contains(reason), let documented = reason.status else {
            throw .invalid("fault reason \"\(reason.rawValue)\" is not one APNs documents; give \(Self.allowedForms)")
        }
        guard documented == status else {
            throw .invalid("APNs answers \(reason.rawValue) with \(documented), not \(status)")
        }
        self.status = status
        self.reason = reason
    }

    /// A bare status with its usual reason.
    public init(status: Int) throws(SandboxError) {
        guard let reason = Self.usualReasons[status] else {
            throw .invalid("fault status \(status) is not one of 429, 500, 503; for other answers give \(Self.allowedForms)")
        }
        self.status = status
        self.reason = reason
    }

    /// Parses `"503"`, `"Shutdown"` or `"503 Shutdown"`.
    public init(text: String) throws(SandboxError) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        switch parts.count {
        case 1 where Int(parts[0]) != nil:
            try self.init(status: Int(parts[0])!)
        case 1:
            let reason = APNsReason(rawValue: String(parts[0])).canonical
            guard APNsReason.known.contains(reason), let status = reason.status else {
                throw .invalid("fault \"\(text)\" is not a reason APNs documents; give \(Self.allowedForms)")
            }
            try self.init(status: status, reason: reason)
        case 2 where Int(parts[0]) != nil:
            try self.init(status: Int(parts[0])!, reason: APNsReason(rawValue: String(parts[1])))
        default:
            throw .invalid("fault \"\(text)\" is not understood; give \(Self.allowedForms)")
        }
    }

    /// 429 `TooManyRequests`.
    public static let tooManyRequests = FaultAnswer(checked: 429, .tooManyRequests)
    /// 500 `InternalServerError`.
    public static let internalServerError = FaultAnswer(checked: 500, .internalServerError)
    /// 503 `ServiceUnavailable`.
    public static let serviceUnavailable = FaultAnswer(checked: 503, .serviceUnavailable)
    /// 503 `Shutdown`, after which the connection closes with GOAWAY.
    public static let shutdown = FaultAnswer(checked: 503, .shutdown)

    private init(checked status: Int, _ reason: APNsReason) {
        self.status = status
        self.reason = reason
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            if let status = try? container.decode(Int.self) {
                try self.init(status: status)
            } else if let text = try? container.decode(String.self) {
                try self.init(text: text)
            } else {
                throw SandboxError.invalid("a fault is \(Self.allowedForms)")
            }
        } catch let error as SandboxError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// A bare status when the reason is the usual one, otherwise `"503 Shutdown"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if Self.usualReasons[status] == reason {
            try container.encode(status)
        } else {
            try container.encode(description)
        }
    }

    public var description: String { "\(status) \(reason.rawValue)" }
}
