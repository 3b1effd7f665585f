#if canImport(UserNotifications)
import UserNotifications
#else
import HeraldUserNotifications
#endif
import Foundation

/// What a content extension's view shows for a notification, in the seeds' pattern (seed 000's
/// view reads the image its service extension put in `userInfo["image"]`; seed 004's reads the
/// first image attachment): the alert's text and the image's bytes, read safely.
///
/// ```swift
/// func didReceive(_ notification: UNNotification) {
///     let shown = HeraldNotificationContent(notification)
///     titleLabel.text = shown.title
///     imageView.image = shown.imageData.flatMap(UIImage.init(data:))
/// }
/// ```
public struct HeraldNotificationContent {
    public var title: String
    public var subtitle: String
    public var body: String
    public var categoryIdentifier: String
    /// The first image attachment's file, if any.
    public var imageAttachmentURL: URL?
    /// The image: `userInfo["image"]` when it holds bytes, else the first image attachment's.
    public var imageData: Data?

    public init(_ notification: UNNotification) {
        let content = notification.request.content
        title = content.title
        subtitle = content.subtitle
        body = content.body
        categoryIdentifier = content.categoryIdentifier
        let attachment = content.attachments.first { Self.imageTypes.contains($0.type) }
        imageAttachmentURL = attachment?.url
        if let data = content.userInfo["image"] as? Data, !data.isEmpty {
            imageData = data
        } else if let url = attachment?.url {
            imageData = Self.read(url)
        }
    }

    static let imageTypes: Set<String> = ["public.jpeg", "public.png", "com.compuserve.gif"]

    /// Reads an attachment's file; on iOS it is outside the extension's sandbox, so access is
    /// asked for first, as Apple requires.
    static func read(_ url: URL) -> Data? {
        #if os(iOS) || os(macOS) || os(watchOS) || os(visionOS)
        let granted = url.startAccessingSecurityScopedResource()
        defer { if granted { url.stopAccessingSecurityScopedResource() } }
        #endif
        return try? Data(contentsOf: url)
    }
}
