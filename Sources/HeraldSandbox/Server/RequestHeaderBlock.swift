import NIOHPACK

/// Reads a request's header block and checks the HTTP/2 rules for it (RFC 9113 §8.2–8.3) in the
/// same pass: the connection handler does this itself instead of swift-nio-http2's generic
/// validation, which costs more than the rest of an APNs answer.
struct RequestHeaderBlock {
    var method = ""
    var path = ""
    /// Regular fields in order, pseudo-headers and `authorization` removed.
    var fields: [(name: String, value: String)] = []
    /// The first `authorization` field (the provider token), kept apart: it is never linted or stored.
    var authorization: String?
    /// Why the block is malformed (the stream is then reset with PROTOCOL_ERROR), if it is.
    var malformation: String?

    init(_ headers: HPACKHeaders) {
        fields.reserveCapacity(headers.count)
        var scheme = false
        var regularSeen = false
        for (name, value, _) in headers {
            if name.utf8.first == UInt8(ascii: ":") {
                if regularSeen { malformation = "pseudo-header \(name) after regular fields"; return }
                switch name {
                case ":method": if !method.isEmpty { malformation = "two :method" }; method = value
                case ":path": if !path.isEmpty { malformation = "two :path" }; path = value
                case ":scheme": if scheme { malformation = "two :scheme" }; scheme = true
                case ":authority": break
                default: malformation = "unknown pseudo-header \(name)"
                }
                if malformation != nil { return }
                continue
            }
            regularSeen = true
            guard Self.isLegalName(name) else { malformation = "field name '\(name)' is not a lowercase token"; return }
            if Self.mayBeConnectionSpecific(name), Self.connectionSpecific.contains(name) || (name == "te" && value != "trailers") {
                malformation = "connection-specific field \(name)"
                return
            }
            if name == "authorization" {
                // Never stored or echoed; the token parser refuses anything but base64url and dots.
                if authorization == nil { authorization = value }
                continue
            }
            if value.utf8.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) {
                malformation = "field \(name) has NUL, CR or LF in its value"
                return
            }
            fields.append((name, value))
        }
        if method.isEmpty || path.isEmpty || !scheme { malformation = "a request needs :method, :scheme and :path" }
    }

    static let connectionSpecific: Set<String> = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]

    /// A cheap first look (by first letter) before the set lookup.
    static func mayBeConnectionSpecific(_ name: String) -> Bool {
        switch name.utf8.first {
        case UInt8(ascii: "c"), UInt8(ascii: "k"), UInt8(ascii: "p"), UInt8(ascii: "t"), UInt8(ascii: "u"): true
        default: false
        }
    }

    /// Lowercase `token` characters (RFC 9110 §5.6.2).
    static func isLegalName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { $0 < 128 && legalNameBytes[Int($0)] }
    }

    private static let legalNameBytes: [Bool] = (0..<128).map { byte in
        let character = Character(Unicode.Scalar(UInt8(byte)))
        return character.isLowercase || character.isNumber || "-_.!#$%&'*+^`|~".contains(character)
    }
}
