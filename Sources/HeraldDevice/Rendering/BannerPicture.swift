import Foundation

/// Lays out and draws one shown notification as SVG, in points, the way iOS shows it.
struct BannerPicture {
    let item: ShownNotification
    let icon: AppIcon
    let layout: BannerLayout

    static let screenWidth = 375.0
    static let cardX = 8.0
    static let cardWidth = screenWidth - 16
    static let inset = 14.0
    static let iconSize = 38.0
    static let lineHeight = 20.0
    static let fontFamily = "-apple-system, 'SF Pro Text', 'Helvetica Neue', Helvetica, Arial, 'PingFang SC', 'WenQuanYi Micro Hei', "
        + "'Noto Sans CJK SC', sans-serif"
    /// Emoji get fonts of their own (colour where there is one, Symbola's outlines otherwise), so
    /// they never fall back to a missing glyph and the text font keeps its digits.
    static let emojiFamily = "'Apple Color Emoji', 'Noto Color Emoji', Symbola"

    init(item: ShownNotification, icon: AppIcon) {
        self.item = item
        self.icon = icon
        self.layout = BannerLayout(item)
    }

    /// Drawing commands and the next free y.
    struct Canvas {
        var elements: [String] = []
        var y = 0.0

        mutating func text(_ string: String, x: Double, y: Double, size: Double, weight: Int = 400, color: String = "#000",
                           anchor: String = "start") {
            elements.append("<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" font-size=\"\(Self.number(size))\" font-weight=\"\(weight)\" "
                + "fill=\"\(color)\" text-anchor=\"\(anchor)\">\(Self.runs(string))</text>")
        }

        /// The text escaped, with each run of emoji in a `tspan` with the emoji fonts.
        static func runs(_ string: String) -> String {
            var result = ""
            var run = ""
            var runIsEmoji = false
            func flush() {
                guard !run.isEmpty else { return }
                let escaped = BannerRenderer.escape(run)
                result += runIsEmoji ? "<tspan font-family=\"\(BannerPicture.emojiFamily)\">\(escaped)</tspan>" : escaped
                run = ""
            }
            for character in string {
                let emoji = isEmoji(character)
                if emoji != runIsEmoji { flush(); runIsEmoji = emoji }
                run.append(character)
            }
            flush()
            return result
        }

        static func isEmoji(_ character: Character) -> Bool {
            character.unicodeScalars.contains { $0.properties.isEmojiPresentation || $0.value == 0xFE0F || $0.value == 0x200D }
                || (character.unicodeScalars.first.map { $0.value >= 0x1F000 } ?? false)
        }

        mutating func rect(x: Double, y: Double, width: Double, height: Double, radius: Double, fill: String, opacity: Double = 1) {
            elements.append("<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" "
                + "rx=\"\(Self.number(radius))\" fill=\"\(fill)\"" + (opacity < 1 ? " fill-opacity=\"\(Self.number(opacity))\"" : "") + "/>")
        }

        mutating func image(_ data: Data, x: Double, y: Double, width: Double, height: Double, radius: Double, id: String) {
            guard let mime = ImageSize.mime(data) else { return }
            elements.append("<clipPath id=\"\(id)\"><rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(width))\" "
                + "height=\"\(Self.number(height))\" rx=\"\(Self.number(radius))\"/></clipPath>")
            elements.append("<image x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" "
                + "clip-path=\"url(#\(id))\" preserveAspectRatio=\"xMidYMid slice\" href=\"data:\(mime);base64,\(data.base64EncodedString())\"/>")
        }

        static func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
        }
    }

    func svg() -> String {
        var canvas = Canvas()
        let height: Double
        let background: String
        if item.expanded {
            background = "<rect width=\"100%\" height=\"100%\" fill=\"#3a3a3c\"/>"
            height = drawExpanded(&canvas, top: 48)
        } else if item.onLockScreen {
            background = "<defs><linearGradient id=\"wall\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\"><stop offset=\"0\" stop-color=\"#1d3557\"/>"
                + "<stop offset=\"1\" stop-color=\"#0b0c10\"/></linearGradient></defs><rect width=\"100%\" height=\"100%\" fill=\"url(#wall)\"/>"
            drawLockClock(&canvas)
            height = drawStack(&canvas, top: 176) + 24
        } else {
            background = "<defs><linearGradient id=\"wall\" x1=\"0\" y1=\"0\" x2=\"1\" y2=\"1\"><stop offset=\"0\" stop-color=\"#8ec5fc\"/>"
                + "<stop offset=\"1\" stop-color=\"#e0c3fc\"/></linearGradient></defs><rect width=\"100%\" height=\"100%\" fill=\"url(#wall)\"/>"
            height = drawStack(&canvas, top: 12) + 16
        }
        let width = Int(Self.screenWidth)
        return """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(Int(height.rounded(.up)))" viewBox="0 0 \(width) \(Int(height.rounded(.up)))" \
        font-family="\(Self.fontFamily)">
        \(background)
        \(canvas.elements.joined(separator: "\n"))
        </svg>
        """
    }

    // MARK: Lock screen and banner

    /// The lock screen's date and time, from when the notification arrived.
    private func drawLockClock(_ canvas: inout Canvas) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.hour, .minute, .weekday, .day, .month], from: item.notification.date)
        let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        canvas.text("\(weekdays[(parts.weekday ?? 1) - 1]), \(months[(parts.month ?? 1) - 1]) \(parts.day ?? 1)",
                    x: Self.screenWidth / 2, y: 58, size: 18, weight: 600, color: "#e5e5ea", anchor: "middle")
        canvas.text(String(format: "%d:%02d", parts.hour ?? 9, parts.minute ?? 41), x: Self.screenWidth / 2, y: 140, size: 80, weight: 600,
                    color: "#ffffff", anchor: "middle")
    }

    /// The card, with up to two of its thread's earlier notifications peeking out below it.
    private func drawStack(_ canvas: inout Canvas, top: Double) -> Double {
        var card = Canvas()
        let bottom = drawCollapsed(&card, top: top)
        let behind = min(2, max(0, item.groupSize - 1))
        for level in stride(from: behind, through: 1, by: -1) {
            let inset = 10.0 * Double(level)
            canvas.rect(x: Self.cardX + inset, y: top + 8 * Double(level), width: Self.cardWidth - 2 * inset, height: bottom - top,
                        radius: 20, fill: "#f2f2f7", opacity: 0.75 - 0.2 * Double(level))
        }
        canvas.rect(x: Self.cardX, y: top, width: Self.cardWidth, height: bottom - top, radius: 22, fill: "#f9f9f9", opacity: 0.97)
        canvas.elements += card.elements
        return bottom + 8 * Double(behind)
    }

    /// The collapsed notification: icon or avatar, title, subtitle, up to four lines of body,
    /// a thumbnail of an image attachment. Returns the card's bottom.
    private func drawCollapsed(_ canvas: inout Canvas, top: Double) -> Double {
        let left = Self.cardX + Self.inset
        let textX = left + Self.iconSize + 10
        let right = Self.cardX + Self.cardWidth - Self.inset
        drawIcon(&canvas, x: left, y: top + Self.inset)
        canvas.text("now", x: right, y: top + 30, size: 13, color: "#8e8e93", anchor: "end")
        let thumbnail = imageAttachment()
        let textRight = thumbnail == nil ? right : right - 44
        var baseline = top + 30
        let regular = TextMeasure(size: 15)
        let bold = TextMeasure(size: 15, bold: true)
        // The first line: the sender of a communication notification, the title, or the app's name.
        let firstLine = item.content.communication.map { communication in
            communication.groupName.map { "\(communication.senderName) — \($0)" } ?? communication.senderName
        } ?? layout.titleText ?? item.appName
        for line in bold.wrap(firstLine, width: textRight - textX - 34, lines: 1) {
            canvas.text(line, x: textX, y: baseline, size: 15, weight: 700)
        }
        if let subtitle = layout.subtitleText {
            baseline += Self.lineHeight
            for line in bold.wrap(subtitle, width: textRight - textX, lines: 1) { canvas.text(line, x: textX, y: baseline, size: 15, weight: 700) }
        }
        if let body = layout.bodyText {
            for line in regular.wrap(body, width: textRight - textX, lines: BannerLayout.collapsedBodyLines) {
                baseline += Self.lineHeight
                canvas.text(line, x: textX, y: baseline, size: 15, color: "#1c1c1e")
            }
        }
        if let thumbnail {
            canvas.image(thumbnail, x: right - 36, y: top + 38, width: 36, height: 36, radius: 6, id: "thumb")
            baseline = max(baseline, top + 74)
        } else if let attachment = layout.attachment {
            baseline += Self.lineHeight
            canvas.text(attachment, x: textX, y: baseline, size: 13, color: "#8e8e93")
        }
        return max(baseline + 14, top + Self.iconSize + 2 * Self.inset)
    }

    /// The app's icon, or for a communication notification the sender's avatar with the app's
    /// icon as a badge.
    private func drawIcon(_ canvas: inout Canvas, x: Double, y: Double) {
        guard let communication = item.content.communication else {
            canvas.elements.append(icon.svg(x: x, y: y, size: Self.iconSize, id: "appicon"))
            return
        }
        let size = Self.iconSize
        if let avatar = communication.senderImage, ImageSize.mime(avatar) != nil {
            canvas.image(avatar, x: x, y: y, width: size, height: size, radius: size / 2, id: "avatar")
        } else {
            canvas.rect(x: x, y: y, width: size, height: size, radius: size / 2, fill: "#aeaeb2")
            let initials = communication.senderName.split(separator: " ").prefix(2).compactMap(\.first).map(String.init).joined()
            canvas.text(initials.uppercased(), x: x + size / 2, y: y + size * 0.64, size: 15, weight: 600, color: "#fff", anchor: "middle")
        }
        let badge = 18.0
        canvas.rect(x: x + size - badge + 3, y: y + size - badge + 3, width: badge + 2, height: badge + 2, radius: (badge + 2) * 0.225, fill: "#f9f9f9")
        canvas.elements.append(icon.svg(x: x + size - badge + 4, y: y + size - badge + 4, size: badge, id: "badgeicon"))
    }

    /// The first image attachment's bytes.
    private func imageAttachment() -> Data? {
        guard !item.previewsHidden, let attachment = item.content.attachments.first, attachment.kind == .image,
              let data = try? Data(contentsOf: attachment.fileURL), ImageSize.mime(data) != nil else { return nil }
        return data
    }

    // MARK: Expanded

    /// The long-pressed notification: header, the content extension's view or the full-width
    /// image, the text, and the actions grouped below. Returns the picture's height.
    private func drawExpanded(_ canvas: inout Canvas, top: Double) -> Double {
        var card = Canvas()
        let left = Self.cardX + Self.inset
        let right = Self.cardX + Self.cardWidth - Self.inset
        let innerWidth = right - left
        card.elements.append(icon.svg(x: left, y: top + 12, size: 20, id: "appicon"))
        let header = item.expandedTitle ?? item.appName
        card.text(TextMeasure(size: 13, bold: true).wrap(header.uppercased(), width: innerWidth - 70, lines: 1).first ?? "",
                  x: left + 28, y: top + 27, size: 13, weight: 600, color: "#6c6c70")
        card.text("now", x: right, y: top + 27, size: 13, color: "#8e8e93", anchor: "end")
        var y = top + 44
        if let contentExtension = item.contentExtension {
            let height = (innerWidth * contentExtension.initialContentSizeRatio).rounded()
            card.rect(x: left, y: y, width: innerWidth, height: height, radius: 10, fill: "#e5e5ea")
            card.text("\(contentExtension.extensionName)'s view", x: left + innerWidth / 2, y: y + height / 2 + 5, size: 15, color: "#6c6c70",
                      anchor: "middle")
            y += height + 10
        } else if let data = imageAttachment() {
            let size = ImageSize.of(data) ?? ImageSize(width: 4, height: 3)
            let height = min(innerWidth * 1.33, innerWidth * Double(size.height) / Double(max(size.width, 1)))
            card.image(data, x: left, y: y, width: innerWidth, height: height, radius: 10, id: "media")
            y += height + 10
        }
        let regular = TextMeasure(size: 15)
        let bold = TextMeasure(size: 15, bold: true)
        var baseline = y + 6
        let firstLine = item.content.communication.map(\.senderName) ?? layout.titleText
        if let firstLine {
            baseline += 10
            for line in bold.wrap(firstLine, width: innerWidth, lines: 2) {
                card.text(line, x: left, y: baseline, size: 15, weight: 700)
                baseline += Self.lineHeight
            }
            baseline -= Self.lineHeight
        }
        if let subtitle = layout.subtitleText {
            baseline += Self.lineHeight
            for line in bold.wrap(subtitle, width: innerWidth, lines: 1) { card.text(line, x: left, y: baseline, size: 15, weight: 700) }
        }
        if let body = layout.bodyText {
            for line in regular.wrap(body, width: innerWidth, lines: BannerLayout.expandedBodyLines) {
                baseline += Self.lineHeight
                card.text(line, x: left, y: baseline, size: 15, color: "#1c1c1e")
            }
        }
        let bottom = max(baseline + 16, y)
        canvas.rect(x: Self.cardX, y: top, width: Self.cardWidth, height: bottom - top, radius: 22, fill: "#f9f9f9")
        canvas.elements += card.elements
        guard !layout.actions.isEmpty else { return bottom + 16 }
        // The actions, one grouped list under the card.
        let rowHeight = 44.0
        let listTop = bottom + 8
        canvas.rect(x: Self.cardX, y: listTop, width: Self.cardWidth, height: rowHeight * Double(layout.actions.count), radius: 14, fill: "#f9f9f9",
                    opacity: 0.97)
        for (index, action) in layout.actions.enumerated() {
            let rowTop = listTop + rowHeight * Double(index)
            if index > 0 { canvas.rect(x: Self.cardX + 16, y: rowTop, width: Self.cardWidth - 16, height: 0.5, radius: 0, fill: "#c6c6c8") }
            canvas.text(action.title, x: Self.cardX + 16, y: rowTop + 28, size: 17, color: action.destructive ? "#ff3b30" : "#1c1c1e")
            if action.textInput { canvas.text("✎", x: Self.cardX + Self.cardWidth - 16, y: rowTop + 28, size: 17, color: "#8e8e93", anchor: "end") }
        }
        return listTop + rowHeight * Double(layout.actions.count) + 16
    }
}
