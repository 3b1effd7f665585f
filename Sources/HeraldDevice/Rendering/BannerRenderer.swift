import Foundation

/// Draws what the user sees of a notification: as text for terminals and transcripts, or as an
/// SVG picture of the lock-screen banner.
public enum BannerRenderer {
    /// A boxed text banner.
    public static func text(_ item: ShownNotification) -> String {
        let layout = BannerLayout(item)
        let width = BannerLayout.columns
        func row(_ text: String) -> String {
            "│ " + text + String(repeating: " ", count: max(0, width - BannerLayout.displayWidth(text))) + " │"
        }
        var lines = ["╭" + String(repeating: "─", count: width + 2) + "╮"]
        let time = "now"
        let header = BannerLayout.truncate(layout.header, lines: 1).first ?? ""
        lines.append(row(header + String(repeating: " ", count: max(1, width - BannerLayout.displayWidth(header) - time.count)) + time))
        if let title = layout.title { lines.append(row(title)) }
        if let subtitle = layout.subtitle { lines.append(row(subtitle)) }
        lines += layout.body.map(row)
        if let attachment = layout.attachment { lines.append(row(attachment)) }
        if let footnote = layout.footnote { lines.append(row("(\(footnote))")) }
        if !layout.actions.isEmpty {
            lines.append("├" + String(repeating: "─", count: width + 2) + "┤")
            for action in layout.actions {
                lines.append(row(action.title + (action.destructive ? " (destructive)" : "") + (action.textInput ? " ✎" : "")))
            }
        }
        lines.append("╰" + String(repeating: "─", count: width + 2) + "╯")
        return lines.joined(separator: "\n")
    }

    /// An SVG lock-screen banner (375 points wide, as an iPhone screen); image attachments are
    /// embedded as the thumbnail.
    public static func svg(_ item: ShownNotification) -> String {
        let layout = BannerLayout(item)
        let width = 375.0
        let padding = 16.0
        var y = 28.0
        var body: [String] = []
        func text(_ string: String, size: Double, weight: String = "normal", color: String = "#111") {
            body.append("<text x=\"\(padding + 40)\" y=\"\(y)\" font-size=\"\(size)\" font-weight=\"\(weight)\" fill=\"\(color)\">\(escape(string))</text>")
            y += size + 6
        }
        body.append("<rect x=\"\(padding)\" y=\"12\" width=\"28\" height=\"28\" rx=\"7\" fill=\"\(item.content.communication == nil ? "#3478f6" : "#8e8e93")\"/>")
        if let image = item.content.communication?.senderImage, let mime = imageMIME(image) {
            body.append("<clipPath id=\"avatar\"><circle cx=\"\(padding + 14)\" cy=\"26\" r=\"14\"/></clipPath>")
            body.append("<image x=\"\(padding)\" y=\"12\" width=\"28\" height=\"28\" clip-path=\"url(#avatar)\" href=\"data:\(mime);base64,\(image.base64EncodedString())\"/>")
        }
        text(layout.header.dropFirst(2).description, size: 13, color: "#555")
        if let title = layout.title { text(title, size: 15, weight: "bold") }
        if let subtitle = layout.subtitle { text(subtitle, size: 15, weight: "600") }
        for line in layout.body { text(line, size: 15) }
        if let attachment = item.content.attachments.first, attachment.kind == .image,
           let data = try? Data(contentsOf: attachment.fileURL), let mime = imageMIME(data) {
            body.append("<image x=\"\(width - padding - 48)\" y=\"36\" width=\"40\" height=\"40\" preserveAspectRatio=\"xMidYMid slice\" href=\"data:\(mime);base64,\(data.base64EncodedString())\"/>")
        } else if let attachment = layout.attachment {
            text(attachment, size: 12, color: "#555")
        }
        if let footnote = layout.footnote { text(footnote, size: 11, color: "#888") }
        let bannerHeight = max(y, 84)
        var actionRows: [String] = []
        var actionY = bannerHeight + 8
        for action in layout.actions {
            actionRows.append("<rect x=\"\(padding)\" y=\"\(actionY)\" width=\"\(width - 2 * padding)\" height=\"40\" rx=\"10\" fill=\"#f2f2f7\"/>")
            actionRows.append("<text x=\"\(width / 2)\" y=\"\(actionY + 25)\" font-size=\"15\" text-anchor=\"middle\" fill=\"\(action.destructive ? "#ff3b30" : "#007aff")\">\(escape(action.title + (action.textInput ? " ✎" : "")))</text>")
            actionY += 46
        }
        let height = layout.actions.isEmpty ? bannerHeight + 8 : actionY
        return """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="-apple-system, Helvetica, Arial, sans-serif">
        <rect width="100%" height="100%" fill="#1c1c1e"/>
        <rect x="8" y="4" width="\(width - 16)" height="\(bannerHeight - 4)" rx="18" fill="#f9f9f9" fill-opacity="0.95"/>
        <text x="\(width - padding - 8)" y="28" font-size="12" text-anchor="end" fill="#888">now</text>
        \((body + actionRows).joined(separator: "\n"))
        </svg>
        """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The MIME type of PNG, JPEG or GIF data, by its first bytes.
    static func imageMIME(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(4))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8]) { return "image/jpeg" }
        if bytes.starts(with: [0x47, 0x49, 0x46]) { return "image/gif" }
        return nil
    }
}
