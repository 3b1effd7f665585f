/// Why a notification got no answer from APNs, or could not be sent at all.
public enum APNsClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No answer within the request timeout.
    case timeout
    /// The connection could not be made (address, TLS, ALPN); the text says why.
    case connectionFailed(String)
    /// The server's certificate was refused (it does not chain to a trusted root, has expired,
    /// or names another host): trying again at once fails the same way.
    case certificateRejected(String)
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
        case .certificateRejected(let why): "could not connect: \(why)"
        case .connectionLost(let why): "the connection broke before the answer: \(why)"
        case .credentials(let why): "the credentials cannot be used: \(why)"
        case .shutDown: "the client was shut down"
        }
    }

    /// A short, fixed name for why there was no answer, for reports and metric labels (the
    /// detail, with addresses and library errors, belongs in the log): `Timeout`,
    /// `ConnectionFailed`, `TLSFailure`, `ConnectionLost`, `CredentialsUnusable` or `ClientShutDown`.
    public var reasonCode: String {
        switch self {
        case .timeout: "Timeout"
        case .connectionFailed(let why): Self.isTLSFailure(why) ? "TLSFailure" : "ConnectionFailed"
        case .certificateRejected: "TLSFailure"
        case .connectionLost: "ConnectionLost"
        case .credentials: "CredentialsUnusable"
        case .shutDown: "ClientShutDown"
        }
    }

    /// Whether sending again later can succeed: every transport failure can (APNs or the network
    /// may come back); unusable credentials cannot until they are replaced.
    public var isTransient: Bool {
        if case .credentials = self { return false }
        return true
    }

    /// Every code ``reasonCode`` can be.
    public static let reasonCodes: Set<String> = ["Timeout", "ConnectionFailed", "TLSFailure", "ConnectionLost", "CredentialsUnusable", "ClientShutDown"]

    /// TLS failures reach the client as NIOSSL's or BoringSSL's errors, by name. A connection
    /// closed or reset during the handshake is the network's failure, not TLS's.
    private static func isTLSFailure(_ why: String) -> Bool {
        let lowered = why.lowercased()
        if ["uncleanshutdown", "eof", "closed", "reset", "refused", "timed out", "timeout"].contains(where: lowered.contains) { return false }
        return ["nioss", "ssl", "tls", "handshake", "certificate"].contains(where: lowered.contains)
    }
}
