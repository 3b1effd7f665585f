import Foundation
import HeraldCore

/// Where and how an ``APNsClient`` connects, authenticates and retries.
public struct APNsClientConfiguration: Sendable {
    /// The APNs server to talk to.
    public enum Endpoint: Sendable, Hashable {
        /// Apple's production or development service.
        case apple(APNsEnvironment)
        /// Any host and port (a HeraldSandbox, a proxy).
        case custom(host: String, port: Int)

        var host: String {
            switch self {
            case .apple(let environment): environment.host
            case .custom(let host, _): host
            }
        }

        var port: Int {
            switch self {
            case .apple: APNsEnvironment.defaultPort
            case .custom(_, let port): port
            }
        }
    }

    /// How the connection is secured.
    public enum Transport: Sendable, Hashable {
        /// TLS 1.2+ with ALPN h2, trusting the system's roots (`trustedCertificate == nil`) or only
        /// the PEM certificate(s) in the given file, as `curl --cacert` does.
        case tls(trustedCertificate: String? = nil)
        /// HTTP/2 over plain TCP with prior knowledge (local servers only).
        case cleartext
    }

    /// How the provider proves who it is.
    public enum Authentication: Sendable {
        /// A provider token (JWT) from one shared source per team and key.
        case token(ProviderTokenSource)
        /// A client certificate and its private key, as PEM files.
        case certificate(certificatePath: String, privateKeyPath: String)
        /// A client certificate and key in one PKCS#12 file (`.p12`, as Keychain Access exports
        /// it), with its password if it has one.
        case pkcs12(path: String, password: String?)
        /// The same PKCS#12 bundle in memory (a server that keeps credentials in its database
        /// never writes them to a file).
        case pkcs12Data([UInt8], password: String?)
    }

    public var endpoint: Endpoint
    public var transport: Transport
    public var authentication: Authentication
    /// Connections kept open to the endpoint; streams are spread over them.
    public var connections: Int
    /// Streams in flight per connection at most, below the server's own limit.
    public var streamsPerConnection: Int
    /// The longest a notification may wait for its answer, per attempt.
    public var requestTimeout: Duration
    /// The longest a connection attempt may take.
    public var connectTimeout: Duration
    /// When to send again.
    public var retry: RetryPolicy
    /// A connection idle this long is checked with a PING (`nil`: never).
    public var pingInterval: Duration?
    /// A PING unanswered this long closes the connection as dead; the pool replaces it.
    public var pingTimeout: Duration

    public init(
        endpoint: Endpoint,
        transport: Transport = .tls(),
        authentication: Authentication,
        connections: Int = 2,
        streamsPerConnection: Int = 500,
        requestTimeout: Duration = .seconds(10),
        connectTimeout: Duration = .seconds(10),
        retry: RetryPolicy = RetryPolicy(),
        pingInterval: Duration? = .seconds(60),
        pingTimeout: Duration = .seconds(10)
    ) {
        self.endpoint = endpoint
        self.transport = transport
        self.authentication = authentication
        self.connections = max(1, connections)
        self.streamsPerConnection = max(1, streamsPerConnection)
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.retry = retry
        self.pingInterval = pingInterval
        self.pingTimeout = pingTimeout
    }
}
