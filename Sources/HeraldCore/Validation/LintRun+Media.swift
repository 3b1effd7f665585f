extension LintRun {
    /// Words in a key that mark its URL as media for a service extension to attach.
    static let mediaWords = ["image", "img", "media", "video", "audio", "attachment", "picture", "photo", "thumbnail", "gif"]
    /// Words that mark an avatar: loaded as image data for INImage, so no attachment type is needed.
    static let avatarWords = ["avatar", "sender"]
    /// Sibling keys that carry a media type.
    static let typeKeys: Set<String> = [
        "type", "media-type", "media_type", "mediatype", "mime-type", "mime_type", "mimetype", "content-type",
        "content_type", "contenttype", "file-type", "file_type", "filetype",
    ]

    mutating func checkMedia(_ payload: Payload) {
        for entry in payload.json.effectiveEntries where entry.key != "aps" {
            checkMedia(entry.value, key: entry.key, parent: payload.json, path: JSONPath([.key(entry.key)]), parentKey: nil)
        }
        let aps = payload.aps.json
        for entry in aps.effectiveEntries where !APSKey.all.contains(entry.key) {
            checkMedia(entry.value, key: entry.key, parent: aps, path: .aps(entry.key), parentKey: nil)
        }
    }

    private mutating func checkMedia(_ value: JSONValue, key: String, parent: JSONObject, path: JSONPath, parentKey: String?) {
        switch value {
        case .object(let object):
            for entry in object.effectiveEntries {
                checkMedia(entry.value, key: entry.key, parent: object, path: path.appending(entry.key), parentKey: key)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                checkMedia(element, key: key, parent: [:], path: path.appending(index: index), parentKey: parentKey)
            }
        case .string(let string):
            checkMediaURL(string, key: key, parent: parent, path: path, parentKey: parentKey)
        default:
            break
        }
    }

    private mutating func checkMediaURL(_ url: String, key: String, parent: JSONObject, path: JSONPath, parentKey: String?) {
        guard let first = url.utf8.first, first == UInt8(ascii: "h") || first == UInt8(ascii: "H") else { return }
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return }
        let names = [key, parentKey ?? ""].map { $0.lowercased() }
        let isMedia = names.contains { name in Self.mediaWords.contains { name.contains($0) } }
        let isAvatar = names.contains { name in Self.avatarWords.contains { name.contains($0) } }
        guard isMedia || isAvatar else { return }

        if let bad = url.unicodeScalars.first(where: { !Self.isURLCharacter($0) }) {
            let what = bad == " " ? "a space" : "'\(bad)'"
            report(.mediaURLInvalid, .warning, path: path,
                   "the URL contains \(what); NSURL URLWithString returns nil for it (before iOS 17), so the extension downloads nothing",
                   fix: "percent-encode the URL on the server (a space is %20)")
        }
        if lowered.hasPrefix("http://") {
            report(.mediaURLInsecure, .warning, path: path,
                   "the media URL uses http://; App Transport Security blocks the download unless the extension's Info.plist allows it",
                   fix: "serve the media over https://")
        }
        guard isMedia, !isAvatar else { return }
        let siblingType = parent.entries.last { entry in
            let name = entry.key.lowercased()
            return Self.typeKeys.contains(name)
                || (name.hasSuffix("type") && name.dropLast(4) == key.lowercased().replacingURLWord())
        }
        if let siblingType {
            let value = siblingType.value.stringValue ?? siblingType.value.jsonString
            if AttachmentKind(mediaType: value) == nil {
                report(.mediaTypeUnknown, .warning, path: path.dropLast().appending(siblingType.key),
                       "media type \(JSONValue.string(value).jsonString) names no kind iOS attaches, so an extension that derives the file extension from it cannot make a valid attachment",
                       fix: "send image, audio or video, a MIME type such as image/png, or a file extension such as jpg, png, gif, mp3, m4a, wav, mp4")
            }
        } else {
            let ext = AttachmentKind.fileExtension(ofURL: url)
            let detail = ext.map { " (the URL ends in .\($0), but redirects and CDN URLs make that unreliable)" } ?? " and the URL has no file extension"
            report(.mediaURLWithoutType, .warning, path: path,
                   "media URL without a media type beside it\(detail); the service extension must save the file with the right extension or the attachment fails with \"Unrecognized attachment file type\"",
                   fix: "send the type with the URL, e.g. \"media\": {\"url\": \"…\", \"type\": \"image\"} (image, audio, video or a file extension)")
        }
    }

    /// Characters RFC 3986 allows in a URL, plus '%' for escapes.
    static func isURLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        default: return "-._~:/?#[]@!$&'()*+,;=%".unicodeScalars.contains(scalar)
        }
    }
}

extension String {
    /// The key with a trailing "url" (any case, with an optional separator) removed:
    /// `image_url` → `image_`, `imageURL` → `image`.
    fileprivate func replacingURLWord() -> Substring {
        let lowered = Substring(lowercased())
        return lowered.hasSuffix("url") ? lowered.dropLast(3) : lowered
    }
}
