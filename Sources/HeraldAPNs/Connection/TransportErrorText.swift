/// A transport error in words for people: library errors lose the source paths BoringSSL puts
/// in them (`… at /home/…/.build/checkouts/swift-nio-ssl/…/handshake.cc:393`), and a
/// certificate that does not verify says what to do about it.
enum TransportErrorText {
    /// The text for `error`.
    static func describe(_ error: any Error) -> String {
        let text = strippingSourcePaths("\(error)")
        guard isCertificateRejection(text) else { return text }
        return "TLS: the server's certificate did not verify (signed by a root this machine does not trust, expired, or for another host name); "
            + "trust the server's certificate with --cacert, or check the URL [\(text)]"
    }

    /// True when the text says the server's certificate was refused: sending again cannot help.
    static func isCertificateRejection(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.contains("certificate_verify_failed") || lowered.contains("failedtovalidatehostname")
            || lowered.contains("certificate verify failed") || lowered.contains("did not verify")
    }

    /// Removes every ` at /path/file.ext:123` that BoringSSL appends to its errors.
    static func strippingSourcePaths(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: " at /") {
            result += rest[..<range.lowerBound]
            var end = range.upperBound
            // Up to the line number after the last ':' of the path, or the end of the word.
            while end < rest.endIndex, !" ,])}\"".contains(rest[end]) { end = rest.index(after: end) }
            let skipped = rest[range.lowerBound..<end]
            if skipped.range(of: #":\d+$"#, options: .regularExpression) == nil {
                result += skipped   // not a source location: keep it
            }
            rest = rest[end...]
        }
        return result + rest
    }
}
