import Foundation

/// A server named by URL, as `herald send --url` and `herald bench --url` take it:
/// `https://host[:port]` is TLS (trusting one certificate, or the system's roots) and
/// `http://host[:port]` is HTTP/2 over plain TCP with prior knowledge.
public struct APNsServerURL: Sendable, Hashable {
    public let endpoint: APNsClientConfiguration.Endpoint
    public let isCleartext: Bool

    /// Parses `text`; `nil` when it is not an `https://` or `http://` URL with a host.
    public init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = components.host, !host.isEmpty
        else { return nil }
        isCleartext = scheme == "http"
        endpoint = .custom(host: host, port: components.port ?? (isCleartext ? 80 : 443))
    }

    /// The transport the URL's scheme calls for.
    public func transport(trustedCertificate: String?) -> APNsClientConfiguration.Transport {
        isCleartext ? .cleartext : .tls(trustedCertificate: trustedCertificate)
    }

    /// What the error says when a URL is not one.
    public static let expectedForm = "https://host:port or http://host:port"
}
