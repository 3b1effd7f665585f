import Foundation
import HeraldCore
import Hummingbird

/// The `cursor` of a paged list: where the next page starts, opaque to callers (base64url of
/// the list's name and its position), so a cursor from one list is refused by another.
struct PageCursor: Sendable, Hashable {
    /// Which list it belongs to (`devices`, `notifications`, `deliveries`, `history`).
    var list: String
    /// The position's parts (a token; a time and an id; a row id).
    var parts: [String]

    var encoded: String {
        Base64URL.encode(Array(([list] + parts).joined(separator: "\u{1F}").utf8))
    }

    /// The request's `cursor` for `list`, nil when it has none; 400 for one this server did not
    /// give for this list.
    static func from(_ request: Request, list: String, parts count: Int) throws(APIError) -> [String]? {
        guard let text = request.uri.queryParameters["cursor"].map(String.init), !text.isEmpty else { return nil }
        guard text.count <= 1_024, let bytes = Base64URL.decode(Substring(text)), let decoded = String(bytes: bytes, encoding: .utf8) else {
            throw .badRequest("cursor is not one this server gave; use the nextCursor of the previous page, or none for the first")
        }
        let fields = decoded.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == count + 1, fields[0] == list else {
            throw .badRequest("cursor belongs to another list; use the nextCursor this list gave")
        }
        return Array(fields.dropFirst())
    }
}
