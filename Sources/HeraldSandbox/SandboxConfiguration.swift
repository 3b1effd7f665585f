import Foundation
import HeraldCore
import Logging

/// Everything a ``Sandbox`` needs to start.
public struct SandboxConfiguration: Sendable {
    /// How the APNs port speaks.
    public enum Transport: Sendable {
        /// TLS 1.2+ with ALPN `h2`, with a certificate generated at start (written to
        /// `certificatePath`, or a temporary file) so clients can trust it.
        case tlsSelfSigned(certificatePath: String?)
        /// TLS 1.2+ with ALPN `h2` with the given PEM certificate (chain) and private key files.
        case tls(certificatePath: String, keyPath: String)
        /// Cleartext HTTP/2 with prior knowledge (no TLS).
        case cleartext
    }

    /// Address to listen on; tests use `127.0.0.1` and port 0.
    public var host: String
    /// The APNs port (default 2197, Apple's alternative port).
    public var port: Int
    public var transport: Transport
    /// The admin API's port (HTTP/1.1 JSON); 0 picks a free one, `nil` disables it.
    public var adminPort: Int?
    /// Which APNs this sandbox plays: development also answers `apns-unique-id`; tokens are
    /// registered per environment.
    public var environment: APNsEnvironment
    /// Accept any well-formed token for any topic, registering it on first use.
    public var autoAccept: Bool
    /// `SETTINGS_MAX_CONCURRENT_STREAMS` once a connection has sent a valid provider token.
    public var maxConcurrentStreams: Int
    /// Pushes to one device token allowed in a row (refilled over ``burstWindow``) before
    /// `TooManyRequests`; `Int.max` turns the limit off.
    public var burstLimit: Int
    /// The window for ``burstLimit``, in seconds.
    public var burstWindow: TimeInterval
    /// A connection without requests for this long is closed with GOAWAY `IdleTimeout`; `nil` never.
    public var idleTimeout: TimeInterval?
    /// Connections open at once. At the limit a new connection replaces the oldest one that has
    /// not sent a request yet, or is closed as soon as it is accepted if there is none.
    public var maxConnections: Int
    /// The longest a new connection may take to finish its TLS handshake and send the HTTP/2
    /// preface and SETTINGS.
    public var handshakeTimeout: TimeInterval
    /// At shutdown, how long connections may take to finish the requests they have after
    /// GOAWAY `Shutdown` before they are closed anyway.
    public var shutdownGrace: TimeInterval
    /// Provider keys whose tokens are verified; empty accepts any well-formed ES256 token.
    public var providerKeys: [ProviderTokenVerifier.RegisteredKey]
    /// Deliveries kept per device for the admin API (the oldest are dropped).
    public var deliveriesKeptPerDevice: Int
    /// Event loop threads when the sandbox makes its own group (default: one per core).
    public var threads: Int?
    public var clock: any WallClock
    public var logger: Logger

    public init(
        host: String = "127.0.0.1",
        port: Int = 2197,
        transport: Transport = .tlsSelfSigned(certificatePath: nil),
        adminPort: Int? = 2198,
        environment: APNsEnvironment = .development,
        autoAccept: Bool = false,
        maxConcurrentStreams: Int = 1000,
        burstLimit: Int = 300,
        burstWindow: TimeInterval = 1,
        idleTimeout: TimeInterval? = 600,
        maxConnections: Int = 1024,
        handshakeTimeout: TimeInterval = 10,
        shutdownGrace: TimeInterval = 5,
        providerKeys: [ProviderTokenVerifier.RegisteredKey] = [],
        deliveriesKeptPerDevice: Int = 1000,
        threads: Int? = nil,
        clock: any WallClock = SystemClock(),
        logger: Logger = Logger(label: "herald.sandbox")
    ) {
        self.host = host
        self.port = port
        self.transport = transport
        self.adminPort = adminPort
        self.environment = environment
        self.autoAccept = autoAccept
        self.maxConcurrentStreams = maxConcurrentStreams
        self.burstLimit = burstLimit
        self.burstWindow = burstWindow
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.handshakeTimeout = handshakeTimeout
        self.shutdownGrace = shutdownGrace
        self.providerKeys = providerKeys
        self.deliveriesKeptPerDevice = deliveriesKeptPerDevice
        self.threads = threads
        self.clock = clock
        self.logger = logger
    }
}
