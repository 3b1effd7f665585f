import Foundation
import HeraldCore
import Logging

/// How `herald serve` runs: where it listens, how it delivers, where apps without Apple
/// credentials send.
public struct ServerConfiguration: Sendable {
    /// Where notifications of apps without credentials for an environment go.
    public enum SandboxRoute: Sendable, Hashable {
        /// An APNs server that is not Apple's: a `herald sandbox`, or the HeraldSandbox
        /// `herald serve` starts in its process, trusting `certificate` (PEM) for TLS URLs.
        case external(url: String, certificate: String?)
        /// Nowhere: such sends fail with `NoCredentials`.
        case none
    }

    /// A certificate and its private key (PEM files) for the API.
    public struct TLSFiles: Sendable, Hashable {
        /// The certificate chain, leaf first.
        public var certificate: String
        public var key: String

        public init(certificate: String, key: String) {
            self.certificate = certificate
            self.key = key
        }
    }

    public var host: String
    /// 0 picks a free port.
    public var port: Int
    /// HTTPS for the API (HTTP/2 through ALPN, HTTP/1.1 otherwise); nil: plain HTTP/1.1.
    public var tls: TLSFiles?
    /// Request bodies above this size are refused with 413.
    public var bodyLimit: Int
    /// The same for bulk registration (`PUT /v1/devices`, up to ``bulkDeviceLimit`` devices).
    public var bulkBodyLimit: Int = 16 << 20
    /// Devices registered per bulk call at most.
    public var bulkDeviceLimit: Int = 10_000
    /// How long delivery history is kept.
    public var retention = RetentionPolicy()
    /// How long an idempotency key is remembered.
    public var idempotencyWindow: TimeInterval
    /// This process's name in queue leases; unique per process.
    public var nodeID: String
    /// Batches delivered at once.
    public var workers: Int
    /// Deliveries claimed per batch.
    public var batchSize: Int
    /// How long a claimed batch stays leased; a live node renews its leases every quarter of
    /// it, so a dead node's work is taken over within about this long.
    public var lease: TimeInterval
    /// How long stopping may take: services finishing, then connections and the store closing,
    /// each (30 s).
    public var shutdownGrace: Duration = .seconds(30)
    /// How deliveries that fail for a passing reason are retried, and for how long.
    public var retry: RetrySchedule
    /// How webhook events the receiver did not take are retried, and for how long.
    public var webhookRetry: RetrySchedule
    /// API calls that need the store answer 503 after this long without it; `/ready` gives the
    /// store this long to answer its check.
    public var storeTimeout: Duration
    /// How long start-up waits for an unreachable store before it gives up.
    public var startupTimeout: Duration
    /// How often idle workers look at the queue (they are also woken by each send).
    public var pollInterval: Duration
    /// HTTP/2 connections per app and environment, and streams per connection.
    public var apnsConnections: Int
    public var apnsStreams: Int
    /// Deliveries a node may have sent and not yet recorded (nil: `apnsConnections ×
    /// apnsStreams`): what a crash can make it send twice at most. Larger sends faster when the
    /// store is slow to write, at the price of more duplicates after a crash.
    public var sendWindow: Int?
    public var sandbox: SandboxRoute
    /// The in-process sandbox's admin API, for the console's Sandbox page (`/v1/sandbox/…`);
    /// `nil` when the server runs none.
    public var sandboxAdministration: (any SandboxAdministration)?
    /// The simulated iPhones the console adds (`/v1/phones`); `nil` when the server runs none.
    public var phones: (any SimulatedPhones)?
    /// How often the scheduler looks for due schedules.
    public var schedulerInterval: Duration
    /// `wait=true` answers for audiences up to this size, within `waitTimeout`.
    public var waitLimit: Int
    public var waitTimeout: Duration
    public var clock: any WallClock
    public var logger: Logger

    public init(
        host: String = "127.0.0.1", port: Int = 8080, bodyLimit: Int = 1 << 20, idempotencyWindow: TimeInterval = 86_400,
        nodeID: String = ServerConfiguration.defaultNodeID(), workers: Int = 4, batchSize: Int = 1000, lease: TimeInterval = 10,
        retry: RetrySchedule = RetrySchedule(), webhookRetry: RetrySchedule = RetrySchedule(initialBackoff: 1, maximumBackoff: 600), storeTimeout: Duration = .seconds(5),
        startupTimeout: Duration = .seconds(60),
        pollInterval: Duration = .milliseconds(250), apnsConnections: Int = 4, apnsStreams: Int = 100,
        sandbox: SandboxRoute = .none, schedulerInterval: Duration = .seconds(1), waitLimit: Int = 100,
        waitTimeout: Duration = .seconds(30), clock: any WallClock = SystemClock(), logger: Logger = Logger(label: "herald.serve")
    ) {
        self.host = host
        self.port = port
        self.bodyLimit = bodyLimit
        self.idempotencyWindow = idempotencyWindow
        self.nodeID = nodeID
        self.workers = workers
        self.batchSize = batchSize
        self.lease = lease
        self.retry = retry
        self.webhookRetry = webhookRetry
        self.storeTimeout = storeTimeout
        self.startupTimeout = startupTimeout
        self.pollInterval = pollInterval
        self.apnsConnections = apnsConnections
        self.apnsStreams = apnsStreams
        self.sendWindow = nil
        self.sandbox = sandbox
        self.schedulerInterval = schedulerInterval
        self.waitLimit = waitLimit
        self.waitTimeout = waitTimeout
        self.clock = clock
        self.logger = logger
    }

    /// Host name, process id and a random suffix.
    public static func defaultNodeID() -> String {
        "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
    }
}
