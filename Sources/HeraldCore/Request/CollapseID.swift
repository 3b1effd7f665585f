/// `apns-collapse-id`: notifications with the same value replace each other on the device.
public struct CollapseID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Longest value APNs accepts, in bytes of UTF-8.
    public static let maximumByteCount = 64

    public let value: String

    /// Checks the value; more than 64 bytes is what APNs answers `BadCollapseId` to.
    public init(_ value: String) throws(RequestFieldError) {
        let bytes = value.utf8.count
        guard bytes > 0 else { throw .emptyCollapseID }
        guard bytes <= Self.maximumByteCount else { throw .collapseIDTooLong(bytes: bytes) }
        self.value = value
    }

    public var description: String { value }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
