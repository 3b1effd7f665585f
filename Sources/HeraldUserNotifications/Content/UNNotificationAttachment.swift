import Foundation
import HeraldCore
import HeraldDevice

/// The keys of `UNNotificationAttachment`'s options.
public let UNNotificationAttachmentOptionsTypeHintKey = "UNNotificationAttachmentOptionsTypeHintKey"
public let UNNotificationAttachmentOptionsThumbnailHiddenKey = "UNNotificationAttachmentOptionsThumbnailHiddenKey"
public let UNNotificationAttachmentOptionsThumbnailClippingRectKey = "UNNotificationAttachmentOptionsThumbnailClippingRectKey"
public let UNNotificationAttachmentOptionsThumbnailTimeKey = "UNNotificationAttachmentOptionsThumbnailTimeKey"

/// A media file shown with a notification (Apple's `UNNotificationAttachment`): a local image
/// (≤ 10 MB), audio file (≤ 5 MB) or video (≤ 50 MB), its type told by the file extension.
public class UNNotificationAttachment: NSObject, @unchecked Sendable {
    public let identifier: String
    public let url: URL
    /// The uniform type identifier, e.g. `public.jpeg`.
    public let type: String

    /// Checks the file as iOS does and throws a `UNError` when it is not a local file, its
    /// extension names no type iOS shows, or it is larger than its type allows. An empty
    /// identifier gets a unique one.
    public convenience init(identifier: String, url URL: URL, options: [AnyHashable: Any]? = nil) throws {
        let identifier = identifier.isEmpty ? UUID().uuidString : identifier
        do {
            let checked = try NotificationAttachment(identifier: identifier, fileURL: URL)
            self.init(checked: checked)
        } catch .invalidAttachment(let problem, let why) {
            throw Self.refuse(UNError(problem.errorCode, why), file: URL)
        } catch {
            throw Self.refuse(UNError(.attachmentInvalidURL, error.description), file: URL)
        }
    }

    /// Writes the refusal to the running app's transcript (app code often only logs it).
    private static func refuse(_ error: UNError, file: URL) -> UNError {
        if let runtime = AppRuntime.running {
            runtime.track {
                await runtime.note("UNNotificationAttachment(identifier:url:options:) threw for \(file.lastPathComponent): \(error.message)",
                                   details: ["call": "UNNotificationAttachment", "error": "\(error.code)"])
            }
        }
        return error
    }

    private init(checked: NotificationAttachment) {
        identifier = checked.identifier
        url = checked.fileURL
        type = AttachmentKind.uniformTypeIdentifier(forFileExtension: checked.fileURL.pathExtension) ?? "public.data"
        super.init()
    }

    /// An attachment the device already holds (no second check).
    convenience init(device attachment: NotificationAttachment) {
        self.init(checked: attachment)
    }

    var deviceAttachment: NotificationAttachment {
        NotificationAttachment(unvalidatedIdentifier: identifier, fileURL: url)
    }

    public override var description: String { "<UNNotificationAttachment: identifier: \(identifier), url: \(url.path), type: \(type)>" }
}

extension NotificationAttachment.Problem {
    var errorCode: UNError.Code {
        switch self {
        case .invalidURL: .attachmentInvalidURL
        case .unrecognizedType: .attachmentUnrecognizedType
        case .invalidFileSize: .attachmentInvalidFileSize
        }
    }
}
