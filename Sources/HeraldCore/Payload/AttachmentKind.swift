/// The kinds of media a notification can attach, with the file extensions iOS recognizes and the
/// size limits it enforces (Apple's UNNotificationAttachment rules, shared by lint and the device
/// simulator).
public enum AttachmentKind: String, Sendable, Hashable, Codable, CaseIterable {
    case audio
    case image
    case video

    /// Largest file iOS attaches: audio 5 MB, image 10 MB, video 50 MB.
    public var maximumByteCount: Int {
        switch self {
        case .audio: 5 * 1024 * 1024
        case .image: 10 * 1024 * 1024
        case .video: 50 * 1024 * 1024
        }
    }

    /// File extensions (lowercase) that tell iOS the file is of this kind.
    public var fileExtensions: [String] {
        switch self {
        case .audio: ["aif", "aiff", "wav", "mp3", "m4a"]
        case .image: ["jpg", "jpeg", "gif", "png"]
        case .video: ["mpg", "mpeg", "mp2", "mp4", "avi"]
        }
    }

    /// The kind a file extension names, case-insensitively; `nil` for one iOS does not recognize
    /// (such as `.tmp`, which fails with "Unrecognized attachment file type").
    public init?(fileExtension: String) {
        let lowered = fileExtension.lowercased()
        guard let kind = Self.allCases.first(where: { $0.fileExtensions.contains(lowered) }) else { return nil }
        self = kind
    }

    /// The kind a server-sent media type names: `image`, `image/png`, `png`, `video/mp4`…
    public init?(mediaType: String) {
        let lowered = mediaType.lowercased().trimmingWhitespace()
        if let kind = AttachmentKind(rawValue: lowered) {
            self = kind
        } else if let slash = lowered.firstIndex(of: "/"), let kind = AttachmentKind(rawValue: String(lowered[..<slash])) {
            self = kind
        } else if let kind = AttachmentKind(fileExtension: lowered) {
            self = kind
        } else {
            return nil
        }
    }

    /// The file extension to save a download of this kind with when nothing more precise is
    /// known (what seed 000's extension does): jpg, mp3, mp4.
    /// The uniform type identifier iOS reports for a file extension this kind accepts
    /// (`UNNotificationAttachment.type`), e.g. `public.jpeg`; `nil` for other extensions.
    public static func uniformTypeIdentifier(forFileExtension fileExtension: String) -> String? {
        switch fileExtension.lowercased() {
        case "aif", "aiff": "public.aiff-audio"
        case "wav": "com.microsoft.waveform-audio"
        case "mp3": "public.mp3"
        case "m4a": "public.mpeg-4-audio"
        case "jpg", "jpeg": "public.jpeg"
        case "gif": "com.compuserve.gif"
        case "png": "public.png"
        case "mpg", "mpeg": "public.mpeg"
        case "mp2": "public.mpeg-2-video"
        case "mp4": "public.mpeg-4"
        case "avi": "public.avi"
        default: nil
        }
    }

    /// The file extension to save downloaded media with, so iOS takes it for the right kind:
    /// from the payload's `type` (a kind such as `image`, a media type such as `image/png`, or an
    /// extension), then the response's Content-Type, then the URL's own extension; `nil` when
    /// none names a kind iOS shows.
    public static func fileExtension(type: String?, url: String, contentType: String?) -> String? {
        let urlExtension = fileExtension(ofURL: url)?.lowercased()
        for candidate in [type, contentType].compactMap({ $0 }) {
            guard let kind = Self(mediaType: candidate) else { continue }
            let lowered = candidate.lowercased()
            if kind.fileExtensions.contains(lowered) { return lowered }
            if let subtype = lowered.split(separator: "/").last.map(String.init), kind.fileExtensions.contains(subtype) { return subtype }
            if let urlExtension, kind.fileExtensions.contains(urlExtension) { return urlExtension }
            return kind.preferredFileExtension
        }
        if let urlExtension, Self(fileExtension: urlExtension) != nil { return urlExtension }
        return nil
    }

    public var preferredFileExtension: String {
        switch self {
        case .image: "jpg"
        case .audio: "mp3"
        case .video: "mp4"
        }
    }

    /// The file extension at the end of a URL's path (query and fragment ignored), if any.
    public static func fileExtension(ofURL url: String) -> String? {
        var path = Substring(url)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        if let scheme = path.range(of: "://") { path = path[scheme.upperBound...] }
        guard let slash = path.firstIndex(of: "/") else { return nil }
        let lastComponent = path[slash...].split(separator: "/").last ?? ""
        guard let dot = lastComponent.lastIndex(of: "."), dot != lastComponent.startIndex else { return nil }
        let ext = lastComponent[lastComponent.index(after: dot)...]
        return ext.isEmpty ? nil : String(ext)
    }
}
