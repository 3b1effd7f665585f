import Foundation
import HeraldCore

/// Downloads the media a payload names and attaches it with the file extension its type gives
/// (seeds 000 and 002).
///
/// The URL is looked for at each key path in turn; the default paths are `media.url` (with its
/// type in `media.type`, seed 000) and `aps.imageAbsoluteString` / `imageAbsoluteString` (seed 002).
/// The file extension comes from the sibling `type` key, else the URL's own extension, else the
/// response's Content-Type. Without any, the file is saved without an extension and iOS rejects
/// it ("Unrecognized attachment file type"), which the transcript then shows.
public struct MediaDownloadStep: ServiceExtensionStep {
    public static let defaultKeyPaths = ["media.url", "aps.imageAbsoluteString", "imageAbsoluteString"]

    public var keyPaths: [String]
    public var attachmentIdentifier: String

    public init(keyPaths: [String] = MediaDownloadStep.defaultKeyPaths, attachmentIdentifier: String = "media") {
        self.keyPaths = keyPaths
        self.attachmentIdentifier = attachmentIdentifier
    }

    public var name: String { "download-media" }

    public func apply(_ context: ServiceExtensionContext) async {
        guard let (path, urlText, typeText) = locate(in: context.payload) else {
            context.log("no media URL at \(keyPaths.joined(separator: ", ")); nothing to download")
            return
        }
        guard let url = URL(string: urlText), url.scheme != nil else {
            context.log("\(path) is \"\(urlText)\", which is not a URL (percent-encode spaces as %20); nothing downloaded")
            return
        }
        let media: FetchedMedia
        do {
            media = try await context.download(url)
        } catch {
            context.log("downloading \(urlText) failed: \(error); shown without the attachment")
            return
        }
        let fileExtension = AttachmentKind.fileExtension(type: typeText, url: urlText, contentType: media.contentType)
        let fileName = "\(UUID().uuidString.prefix(8))" + (fileExtension.map { ".\($0)" } ?? "")
        do {
            let fileURL = try context.save(media.data, as: fileName)
            context.log("downloaded \(media.data.count) bytes from \(urlText) as \(fileName)")
            let attachment = NotificationAttachment(unvalidatedIdentifier: attachmentIdentifier, fileURL: fileURL)
            context.updateBestAttempt { $0.attachments.append(attachment) }
        } catch {
            context.log("saving the download failed: \(error)")
        }
    }

    /// The first key path holding a string, with the `type` beside it.
    private func locate(in payload: Payload) -> (path: String, url: String, type: String?)? {
        for path in keyPaths {
            var value: JSONValue? = .object(payload.json)
            var parent: JSONObject?
            for part in path.split(separator: ".") {
                parent = value?.objectValue
                value = parent?[String(part)]
            }
            guard let url = value?.stringValue, !url.isEmpty else { continue }
            return (path, url, path.contains(".") ? parent?["type"]?.stringValue : nil)
        }
        return nil
    }
}
