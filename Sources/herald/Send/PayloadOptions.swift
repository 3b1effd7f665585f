import ArgumentParser
import HeraldCore

/// `herald send`'s payload flags: a payload built from the command line instead of a file.
struct PayloadOptions: ParsableArguments {
    @Option(help: "Alert title.")
    var title: String?

    @Option(help: "Alert subtitle.")
    var subtitle: String?

    @Option(help: "Alert body.")
    var body: String?

    @Option(help: "Badge number (0 clears it).")
    var badge: Int?

    @Option(help: "Sound file name, or 'default'.")
    var sound: String?

    @Option(help: "Category identifier (selects actions and the content extension).")
    var category: String?

    @Option(help: "Thread identifier (groups notifications).")
    var threadID: String?

    @Flag(help: "Set mutable-content: 1 (the service extension runs).")
    var mutableContent = false

    @Flag(help: "Set content-available: 1 (a background push when nothing else is visible).")
    var contentAvailable = false

    @Option(help: "Interruption level: passive, active, time-sensitive or critical.")
    var interruptionLevel: String?

    @Option(help: "Media URL for a service extension to attach (written as media.url).")
    var mediaURL: String?

    @Option(help: "Media type for --media-url: image, gif, audio or video (written as media.type).")
    var mediaType: String?

    @Option(help: "A custom key beside aps, key=value (value parsed as JSON when it is JSON, else a string); repeatable.")
    var data: [String] = []

    /// True when any payload flag was given.
    var isGiven: Bool {
        title != nil || subtitle != nil || body != nil || badge != nil || sound != nil || category != nil || threadID != nil
            || mutableContent || contentAvailable || interruptionLevel != nil || mediaURL != nil || mediaType != nil || !data.isEmpty
    }

    func validate() throws {
        if (mediaURL == nil) != (mediaType == nil) { throw ValidationError("--media-url and --media-type go together") }
        for pair in data where !pair.contains("=") || pair.hasPrefix("=") {
            throw ValidationError("--data takes key=value, got '\(pair)'")
        }
        if let badge, badge < 0 { throw ValidationError("--badge must be 0 or more") }
    }

    /// The payload the flags describe.
    func payload() throws -> Payload {
        var payload: Payload
        if title != nil || subtitle != nil || body != nil {
            payload = .alert(title: title, subtitle: subtitle, body: body ?? "")
        } else if contentAvailable {
            payload = .background()
        } else {
            payload = Payload()
        }
        if let badge { payload = payload.badge(badge) }
        if let sound { payload = payload.sound(.named(sound)) }
        if let category { payload = payload.category(category) }
        if let threadID { payload = payload.threadID(threadID) }
        if mutableContent { payload = payload.mutableContent() }
        if contentAvailable { payload = payload.contentAvailable() }
        if let interruptionLevel { payload = payload.interruptionLevel(InterruptionLevel(rawValue: interruptionLevel)) }
        if let mediaURL, let mediaType { payload = payload.media(url: mediaURL, type: mediaType) }
        for pair in data {
            let key = String(pair.prefix { $0 != "=" })
            let text = String(pair.dropFirst(key.count + 1))
            let value = (try? JSONValue(parsing: Array(text.utf8))) ?? .string(text)
            payload = payload.custom(key, value)
        }
        return payload
    }
}
