import NIOSSL

/// A transport error in words for people: library errors lose the source paths BoringSSL puts
/// in them (`… at /home/…/.build/checkouts/swift-nio-ssl/…/handshake.cc:393`), and a refused
/// server certificate says what to do about it.
enum TransportErrorText {
    /// The error as the client reports it: ``APNsClientError/certificateRejected(_:)`` for a
    /// server certificate this side refused, otherwise a connection failure.
    static func clientError(_ error: any Error) -> APNsClientError {
        let text = strippingSourcePaths("\(error)")
        guard isCertificateRejection(error) else { return .connectionFailed(text) }
        return .certificateRejected(
            "TLS: the server's certificate did not verify (signed by a root this machine does not trust, expired, or for another host name); "
                + "trust the server's certificate (herald send --cacert, APNsClientConfiguration.Transport.tls(trustedCertificate:)) or check the host [\(text)]"
        )
    }

    /// True when the TLS handshake failed because this side refused the server's certificate:
    /// told by the error's type, never by text the server sent.
    static func isCertificateRejection(_ error: any Error) -> Bool {
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname { return true }
        guard let ssl = error as? NIOSSLError, case .handshakeFailed(let boring) = ssl, case .sslError(let errors) = boring else { return false }
        return errors.contains { "\($0)".contains("CERTIFICATE_VERIFY_FAILED") }
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
