import Foundation
import HeraldCore

/// Turns a push payload into the content iOS shows: the alert string or dictionary, with
/// `*-loc-key` strings looked up in the app's `Localizable.strings` (the key itself when the app
/// has no such string) and `*-loc-args` put in their `%@` / `%1$@` places.
public enum RemoteContent {
    /// The content of `payload` for `app`, and notes about what was resolved or missing.
    public static func make(from payload: Payload, app: AppBundle, languages: [String] = ["en"]) -> (content: NotificationContent, notes: [String]) {
        var notes: [String] = []
        var content = NotificationContent()
        let aps = payload.aps
        switch aps.alert {
        case .text(let body)?:
            content.body = body
        case .content(let alert)?:
            func text(_ plain: String?, key: String?, arguments: [String]?, field: String) -> String {
                guard let key else { return plain ?? "" }
                guard let pattern = app.localizedString(key, languages: languages) else {
                    notes.append("\(field) loc key \"\(key)\" is not in the app's Localizable.strings, so the key itself is shown")
                    return key
                }
                return Self.format(pattern, arguments ?? [])
            }
            content.title = text(alert.title, key: alert.titleLocKey, arguments: alert.titleLocArgs, field: "title")
            content.subtitle = text(alert.subtitle, key: alert.subtitleLocKey, arguments: alert.subtitleLocArgs, field: "subtitle")
            content.body = text(alert.body, key: alert.locKey, arguments: alert.locArgs, field: "body")
            content.launchImageName = alert.launchImage ?? ""
        case nil:
            break
        }
        content.badge = aps.badge
        switch aps.sound {
        case .named(let name)?: content.sound = name
        case .critical(let critical)?: content.sound = critical.name ?? "default"
        case nil: break
        }
        content.categoryIdentifier = aps.category ?? ""
        content.threadIdentifier = aps.threadID ?? ""
        content.interruptionLevel = aps.interruptionLevel ?? .active
        content.targetContentIdentifier = aps.targetContentID
        content.relevanceScore = aps.relevanceScore ?? 0
        content.filterCriteria = aps.filterCriteria
        content.userInfo = payload.json
        return (content, notes)
    }

    /// Puts arguments into a localized format: `%@` in order, `%1$@` by position, `%%` as `%`.
    static func format(_ format: String, _ arguments: [String]) -> String {
        var result = ""
        var next = 0
        var index = format.startIndex
        while index < format.endIndex {
            let character = format[index]
            guard character == "%" else {
                result.append(character)
                index = format.index(after: index)
                continue
            }
            var cursor = format.index(after: index)
            var position: Int?
            var digits = ""
            while cursor < format.endIndex, format[cursor].isNumber {
                digits.append(format[cursor])
                cursor = format.index(after: cursor)
            }
            if !digits.isEmpty, cursor < format.endIndex, format[cursor] == "$" {
                position = Int(digits).map { $0 - 1 }
                cursor = format.index(after: cursor)
            } else if !digits.isEmpty {
                cursor = format.index(index, offsetBy: 1)
            }
            guard cursor < format.endIndex else {
                result.append("%")
                break
            }
            switch format[cursor] {
            case "%":
                result.append("%")
            case "@", "d", "i", "u", "s", "f":
                let argumentIndex = position ?? next
                if position == nil { next += 1 }
                result += argumentIndex >= 0 && argumentIndex < arguments.count ? arguments[argumentIndex] : ""
            default:
                result.append("%")
                result.append(format[cursor])
            }
            index = format.index(after: cursor)
        }
        return result
    }
}
