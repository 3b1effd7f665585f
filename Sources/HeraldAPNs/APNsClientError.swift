/// Why a notification got no answer from APNs, or could not be sent at all.
public enum APNsClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No answer within the request timeout.
    case timeout
    /// The connection could not be made (address, TLS, ALPN); the text says why.
    case connectionFailed(String)
    /// The connection broke before the answer came.
    case connectionLost(String)
    /// The credentials could not be used (unreadable key or certificate).
    case credentials(String)
    /// The client was shut down before the notification was sent.
    case shutDown

    public var description: String {
        switch self {
        case .timeout: "no answer within the request timeout"
        case .connectionFailed(let why): "could not connect: \(why)"
        case .connectionLost(let why): "the connection broke before the answer: \(why)"
        case .credentials(let why): "the credentials cannot be used: \(why)"
        case .shutDown: "the client was shut down"
        }
    }
}
