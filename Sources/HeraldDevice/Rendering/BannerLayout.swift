import Foundation

/// The lines a notification shows, laid out as iOS does: the app name (or the sender of a
/// communication notification), a one-line title and subtitle, and the body cut to four lines
/// collapsed (more when expanded), each cut line ending in "…". Shared by the text and SVG
/// renderers so both show the same thing.
struct BannerLayout {
    /// Display columns per line (a CJK character takes two).
    static let columns = 40
    static let collapsedBodyLines = 4
    static let expandedBodyLines = 12

    var header: String
    /// The texts shown, before wrapping (the SVG wraps them by measured width).
    var titleText: String?
    var subtitleText: String?
    var bodyText: String?
    var title: String?
    var subtitle: String?
    var body: [String]
    var attachment: String?
    var actions: [(title: String, destructive: Bool, textInput: Bool)]
    var footnote: String?

    init(_ item: ShownNotification) {
        let content = item.content
        let hidesDefault = item.expanded && item.contentExtension?.defaultContentHidden == true
        if let communication = content.communication {
            header = "◉ \(communication.senderName)" + (communication.groupName.map { " — \($0)" } ?? "") + " · \(item.appName)"
        } else {
            header = "▣ \((item.expanded ? item.expandedTitle ?? item.appName : item.appName).uppercased())"
        }
        if hidesDefault {
            titleText = nil
            subtitleText = nil
            bodyText = nil
        } else if item.previewsHidden {
            let options = item.category?.options ?? []
            titleText = options.contains(.hiddenPreviewsShowTitle) && !content.title.isEmpty ? content.title : nil
            subtitleText = options.contains(.hiddenPreviewsShowSubtitle) && !content.subtitle.isEmpty ? content.subtitle : nil
            bodyText = item.category?.hiddenPreviewsBodyPlaceholder?.replacingOccurrences(of: "%u", with: String(item.groupSize)) ?? "Notification"
        } else {
            titleText = content.title.isEmpty || content.communication != nil ? nil : content.title
            subtitleText = content.subtitle.isEmpty ? nil : content.subtitle
            bodyText = content.body.isEmpty ? nil : content.body
        }
        title = titleText.flatMap { Self.truncate($0, lines: 1).first }
        subtitle = subtitleText.flatMap { Self.truncate($0, lines: 1).first }
        body = bodyText.map { Self.truncate($0, lines: item.expanded ? Self.expandedBodyLines : Self.collapsedBodyLines) } ?? []
        attachment = item.previewsHidden ? nil : content.attachments.first.map { "[\($0.kind?.rawValue ?? "file"): \($0.fileURL.lastPathComponent)]" }
        actions = item.expanded ? item.actions.map { ($0.title, $0.options.contains(.destructive), $0.textInput != nil) } : []
        if item.expanded, let contentExtension = item.contentExtension {
            footnote = "custom view: \(contentExtension.extensionName), height \(contentExtension.initialContentSizeRatio) × width"
        } else if !item.expanded, !item.actions.isEmpty {
            footnote = "\(item.actions.count) action\(item.actions.count == 1 ? "" : "s") when expanded"
        } else {
            footnote = nil
        }
    }

    /// Wraps text into at most `lines` lines of ``columns`` display columns; the last line ends
    /// in "…" when text was cut.
    static func truncate(_ text: String, lines: Int) -> [String] {
        var result: [String] = []
        var current = ""
        var width = 0
        let characters = Array(text.replacingOccurrences(of: "\n", with: " "))
        for character in characters {
            let characterWidth = displayWidth(character)
            if width + characterWidth > columns {
                result.append(current)
                current = ""
                width = 0
                if result.count == lines {
                    var last = result.removeLast()
                    while displayWidth(last) + 1 > columns { last.removeLast() }
                    result.append(last + "…")
                    return result
                }
                if character == " " { continue }
            }
            current.append(character)
            width += characterWidth
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// Columns a string takes in a terminal.
    static func displayWidth(_ text: String) -> Int {
        text.reduce(0) { $0 + displayWidth($1) }
    }

    static func displayWidth(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first?.value else { return 1 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(scalar) } ? 2 : 1
    }
}
