import Foundation
import HeraldCore

/// A media file attached to a notification (UNNotificationAttachment): a local file whose
/// extension says what it is.
public struct NotificationAttachment: Sendable, Equatable {
    /// What is wrong with an attachment (UNError's attachment codes).
    public enum Problem: String, Sendable, Equatable {
        /// Not a local file, or no file there.
        case invalidURL = "invalid-url"
        /// The file extension names no type iOS shows.
        case unrecognizedType = "unrecognized-type"
        /// Larger than its type allows.
        case invalidFileSize = "invalid-file-size"
    }

    public var identifier: String
    public var fileURL: URL
    /// What iOS takes the file for, by its extension.
    public var kind: AttachmentKind? { AttachmentKind(fileExtension: fileURL.pathExtension) }

    /// An attachment made without checks, as a service extension may hand one over; the system
    /// checks it with ``validated()`` after the extension finishes.
    public init(unvalidatedIdentifier identifier: String, fileURL: URL) {
        self.identifier = identifier
        self.fileURL = fileURL
    }

    /// Checks the attachment again, as the system does after the service extension finishes and
    /// when a local request is added.
    public func validated() throws(NotificationCenterError) -> NotificationAttachment {
        try NotificationAttachment(identifier: identifier, fileURL: fileURL)
    }

    /// Checks the file as iOS does: it must exist, its extension must name a kind iOS knows, and
    /// it must be within that kind's size limit.
    public init(identifier: String, fileURL: URL) throws(NotificationCenterError) {
        guard fileURL.isFileURL else {
            throw .invalidAttachment(.invalidURL, "\(fileURL.absoluteString) is not a local file; download it first and attach the file")
        }
        let path = fileURL.path
        guard let kind = AttachmentKind(fileExtension: fileURL.pathExtension) else {
            let known = AttachmentKind.allCases.flatMap(\.fileExtensions).joined(separator: ", ")
            throw .invalidAttachment(
                .unrecognizedType, "Unrecognized attachment file type: \(fileURL.lastPathComponent) (the file extension tells iOS the type; use one of \(known))"
            )
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path), let size = attributes[.size] as? Int else {
            throw .invalidAttachment(.invalidURL, "\(path) does not exist or cannot be read")
        }
        guard size <= kind.maximumByteCount else {
            throw .invalidAttachment(.invalidFileSize, "\(fileURL.lastPathComponent) is \(size) bytes; \("aeiou".contains(kind.rawValue.prefix(1)) ? "an" : "a") \(kind.rawValue) attachment may be at most \(kind.maximumByteCount) bytes")
        }
        self.identifier = identifier
        self.fileURL = fileURL
    }
}
