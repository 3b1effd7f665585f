import Foundation

/// `apns-id`: a canonical UUID naming one notification, echoed by APNs in its answer.
public struct NotificationID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID = UUID()) {
        self.uuid = uuid
    }

    /// Parses the canonical 8-4-4-4-12 form (either case); anything else is what APNs answers
    /// `BadMessageId` to.
    public init(_ text: String) throws(RequestFieldError) {
        guard DeviceToken.looksLikeUUID(text), let uuid = UUID(uuidString: text) else {
            throw .badNotificationID(text)
        }
        self.uuid = uuid
    }

    /// Lowercase canonical form, as Apple's documentation writes it.
    public var headerValue: String { uuid.uuidString.lowercased() }

    public var description: String { headerValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(headerValue)
    }
}
