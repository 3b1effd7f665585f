/// Why a request field (header value) is not acceptable to APNs.
public enum RequestFieldError: Error, Sendable, Hashable, CustomStringConvertible {
    case emptyCollapseID
    case collapseIDTooLong(bytes: Int)
    case badNotificationID(String)

    public var description: String {
        switch self {
        case .emptyCollapseID:
            "the collapse id is empty; leave it out or give 1 to \(CollapseID.maximumByteCount) bytes"
        case .collapseIDTooLong(let bytes):
            "the collapse id is \(bytes) bytes; APNs allows at most \(CollapseID.maximumByteCount) bytes"
        case .badNotificationID(let text):
            "'\(text)' is not a canonical UUID; apns-id must look like 123e4567-e89b-12d3-a456-426614174000"
        }
    }
}
