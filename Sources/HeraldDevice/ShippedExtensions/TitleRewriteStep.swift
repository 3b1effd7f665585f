import Foundation

/// Rewrites the title (and optionally subtitle and body), as seeds 000, 002 and 003 do to prove
/// their extension ran: `"%@ [modified]"` puts the original title where `%@` is.
public struct TitleRewriteStep: ServiceExtensionStep {
    public var titleFormat: String
    public var subtitle: String?
    public var body: String?

    public init(titleFormat: String = "%@ [modified]", subtitle: String? = nil, body: String? = nil) {
        self.titleFormat = titleFormat
        self.subtitle = subtitle
        self.body = body
    }

    public var name: String { "rewrite-title" }

    public func apply(_ context: ServiceExtensionContext) async {
        context.updateBestAttempt { content in
            content.title = titleFormat.replacingOccurrences(of: "%@", with: content.title)
            if let subtitle { content.subtitle = subtitle }
            if let body { content.body = body }
        }
        context.log("title rewritten to \"\(context.bestAttemptContent.title)\"")
    }
}

/// Sets the category, as seed 000's extension does (so the actions and the content extension of
/// that category apply even when the payload named none).
public struct CategoryStep: ServiceExtensionStep {
    public var category: String

    public init(category: String) {
        self.category = category
    }

    public var name: String { "set-category" }

    public func apply(_ context: ServiceExtensionContext) async {
        context.updateBestAttempt { $0.categoryIdentifier = category }
        context.log("category set to \"\(category)\"")
    }
}

/// Uses up virtual time, to show what happens when an extension is slow.
public struct WaitStep: ServiceExtensionStep {
    public var seconds: Double

    public init(seconds: Double) {
        self.seconds = seconds
    }

    public var name: String { "wait" }

    public func apply(_ context: ServiceExtensionContext) async {
        context.spend(seconds)
        context.log("worked for \(seconds.formattedSeconds) (virtual)")
    }
}

extension Double {
    /// `5 s`, `0.25 s`.
    var formattedSeconds: String {
        (self == rounded() ? String(Int(self)) : String(format: "%.2f", self)) + " s"
    }
}
