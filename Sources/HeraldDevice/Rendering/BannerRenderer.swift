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
        if !item.options.contains(.banner), !item.onLockScreen {
            lines.insert("in Notification Center only (no banner):", at: 0)
        }
        return lines.joined(separator: "\n")
    }

    /// An SVG picture (375 points wide, an iPhone screen) of the notification as it is shown: a
    /// banner over the home screen, a card on the lock screen (stacked on its thread's earlier
    /// ones), or the expanded view with its full-width image or the content extension's view and
    /// the grouped actions. Text wraps at word boundaries by measured width and ends in "…" when
    /// cut; the app's icon comes from its bundle (or is made from its name); a communication
    /// notification shows the sender's avatar with the app's icon as a badge.
    public static func svg(_ item: ShownNotification, app: AppBundle? = nil) -> String {
        BannerPicture(item: item, icon: AppIcon(app, name: item.appName)).svg()
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

}
