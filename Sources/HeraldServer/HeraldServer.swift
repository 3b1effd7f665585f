import Foundation
import HeraldAPNs
import HeraldCore
import HeraldStore
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import NIOPosix
import NIOSSL
import Logging
import ServiceLifecycle

/// The App Server: the JSON API, the delivery workers and the scheduler over one store. Apps
/// without Apple credentials send to the APNs server ``ServerConfiguration/sandbox`` names
/// (`herald serve` starts a HeraldSandbox in its process for them).
///
/// ```swift
/// let server = try await HeraldServer.start(store: SQLiteStore(path: "herald.sqlite"), configuration: ServerConfiguration())
/// try await server.run()   // until SIGTERM or SIGINT
/// ```
public final class HeraldServer: Sendable {
    public let store: any HeraldStore
    public let configuration: ServerConfiguration
    public let metrics = ServerMetrics()
    /// Called when the server closes, after its APNs connections and before the store.
    private let closing: [@Sendable () async throws -> Void]
    let routes: APNsRoutes
    let worker: DeliveryWorker
    let scheduler: Scheduler
    let monitor: HealthMonitor
    let retention: HistoryRetention
    let keys: APIKeys
    let linter = PayloadLinter()

    private init(store: any HeraldStore, configuration: ServerConfiguration, closing: [@Sendable () async throws -> Void], routes: APNsRoutes) {
        self.store = store
        self.configuration = configuration
        self.closing = closing
        self.routes = routes
        keys = APIKeys(store: store, clock: configuration.clock)
        monitor = HealthMonitor(store: store, clock: configuration.clock, logger: configuration.logger, node: configuration.nodeID, timeout: configuration.storeTimeout)
        retention = HistoryRetention(store: store, policy: configuration.retention, clock: configuration.clock, logger: configuration.logger)
        let worker = DeliveryWorker(store: store, configuration: configuration, routes: routes, metrics: metrics)
        self.worker = worker
        let metrics = metrics
        scheduler = Scheduler(store: store, configuration: configuration) { notification, idempotentSince in
            if case .created = try await store.enqueue(notification, idempotentSince: idempotentSince) { metrics.recordAccepted() }
            worker.wake.signal()
        }
    }

    /// Migrates the store and readies the routes to APNs; the API and workers start with
    /// ``run()`` (or ``application()`` for tests). `closing` is called when the server closes,
    /// after its connections to APNs and before the store (`herald serve` closes the
    /// in-process sandbox it started there).
    public static func start(
        store: any HeraldStore, configuration: ServerConfiguration, closing: [@Sendable () async throws -> Void] = []
    ) async throws -> HeraldServer {
        try await prepare(store, configuration: configuration)
        var endpoint: APNsRoutes.SandboxEndpoint?
        switch configuration.sandbox {
        case .external(let url, let certificate):
            guard let server = APNsServerURL(url) else {
                throw ServerError.configuration("--apns-url must look like \(APNsServerURL.expectedForm); got '\(url)'")
            }
            endpoint = .init(endpoint: server.endpoint, transport: server.transport(trustedCertificate: certificate))
        case .none:
            endpoint = nil
        }
        let routes = try APNsRoutes(sandbox: endpoint, connections: configuration.apnsConnections, streams: configuration.apnsStreams)
        return HeraldServer(store: store, configuration: configuration, closing: closing, routes: routes)
    }

    /// Waits for the store to answer (a warning per attempt, each bounded by the store timeout)
    /// for up to ``ServerConfiguration/startupTimeout``, failing with the last error; then
    /// migrates it and readies it to deliver, however long that takes (a large migration).
    /// Errors that waiting cannot fix (a second process on a SQLite file, a newer layout, the
    /// wrong secret key) fail at once.
    static func prepare(_ store: any HeraldStore, configuration: ServerConfiguration) async throws {
        try await waitForStore(store, configuration: configuration)
        try await store.migrate()
        try await store.resealSecrets()
        try await store.prepareToDeliver()
    }

    private static func waitForStore(_ store: any HeraldStore, configuration: ServerConfiguration) async throws {
        let giveUp = ContinuousClock.now + configuration.startupTimeout
        var attempt = 0
        var pause = Duration.milliseconds(500)
        while true {
            attempt += 1
            let timeout = configuration.storeTimeout
            do {
                return try await DeadlineRace.run(within: timeout, timeoutError: {
                    ServerError.configuration("no answer within \(timeout.inSeconds) s")
                }) { try await store.ping() }
            } catch let error as StoreError {
                throw error
            } catch {
                guard ContinuousClock.now + pause < giveUp else {
                    throw ServerError.configuration(
                        "the store could not be reached in \(attempt) attempts over \(configuration.startupTimeout.inSeconds) s: \(error)"
                    )
                }
                configuration.logger.warning("cannot reach the store; trying again", metadata: ["attempt": "\(attempt)", "error": "\(error)"])
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(5))
            }
        }
    }

    /// Creates the admin key when there is none; returns its secret then (shown once), else nil.
    public func bootstrapAdminKey() async throws -> String? {
        guard try await store.keys(appID: nil).isEmpty else { return nil }
        return try await keys.create(appID: nil, now: configuration.clock.now).secret
    }

    /// Recovery when the admin key is lost (`herald serve admin-key`): a new admin key written
    /// straight to the store (a running server sees it at once), with every other admin key
    /// revoked when `revokingOthers`. Returns the new secret and how many keys were revoked.
    public static func issueAdminKey(in store: any HeraldStore, revokingOthers: Bool, now: Date) async throws -> (secret: String, revoked: Int) {
        try await store.migrate()
        let previous = try await store.keys(appID: nil)
        let (_, secret) = try await APIKeys(store: store, clock: SystemClock()).create(appID: nil, now: now)
        var revoked = 0
        if revokingOthers {
            for key in previous where try await store.deleteKey(id: key.id, appID: nil) { revoked += 1 }
        }
        return (secret, revoked)
    }

    /// The HTTP application with the workers and the scheduler as its services: HTTP/1.1, or
    /// with ``ServerConfiguration/tls`` HTTPS with HTTP/2 through ALPN (and HTTP/1.1 for
    /// clients that do not offer it).
    public func application(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> some ApplicationProtocol {
        let server: HTTPServerBuilder = try configuration.tls.map { files in
            try .http2Upgrade(tlsConfiguration: try Self.tlsConfiguration(files))
        } ?? .http1()
        return Application(
            router: router(),
            server: server,
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "herald"),
            services: [worker, worker.webhooks, scheduler, monitor, retention],
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: configuration.logger
        )
    }

    /// The API's TLS: the certificate chain and key from PEM files, ALPN `h2` then `http/1.1`.
    /// Throws a ``ServerError`` naming the file that cannot be used.
    public static func tlsConfiguration(_ files: ServerConfiguration.TLSFiles) throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        let key: NIOSSLPrivateKey
        do {
            chain = try NIOSSLCertificate.fromPEMFile(files.certificate)
        } catch {
            throw ServerError.configuration("--tls-cert '\(files.certificate)' is not a readable PEM certificate: \(error)")
        }
        guard !chain.isEmpty else { throw ServerError.configuration("--tls-cert '\(files.certificate)' holds no certificate") }
        do {
            key = try NIOSSLPrivateKey(file: files.key, format: .pem)
        } catch {
            throw ServerError.configuration("--tls-key '\(files.key)' is not a readable PEM private key: \(error)")
        }
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        tls.minimumTLSVersion = .tlsv12
        // Built once here so a key that does not belong to the certificate is named now, not
        // when the listener starts.
        do {
            _ = try NIOSSLContext(configuration: tls)
        } catch {
            throw ServerError.configuration("--tls-key '\(files.key)' does not go with --tls-cert '\(files.certificate)': \(error)")
        }
        return tls
    }

    /// Serves until SIGTERM or SIGINT; deliveries in flight finish or go back to the queue.
    ///
    /// Stopping is bounded: services get ``ServerConfiguration/shutdownGrace`` to finish
    /// (then they are cancelled, and a service that ignores cancellation for 10 s more ends the
    /// process), and closing APNs connections, the sandbox and the store gets the same again
    /// (then it is abandoned with a warning and the process exits). A node that cannot stop
    /// cleanly still stops; what it leased goes back to the queue when the leases end.
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var group = ServiceGroupConfiguration(
            services: [try application(onServerRunning: onServerRunning)], gracefulShutdownSignals: [.sigterm, .sigint], logger: configuration.logger
        )
        group.maximumGracefulShutdownDuration = configuration.shutdownGrace
        group.maximumCancellationDuration = .seconds(10)
        try await ServiceGroup(configuration: group).run()
        let closed = await Self.finishes(within: configuration.shutdownGrace) { try? await self.shutdown() }
        if !closed {
            configuration.logger.warning("closing APNs connections and the store took longer than the shutdown grace; exiting anyway",
                                         metadata: ["grace": "\(configuration.shutdownGrace)"])
        }
    }

    /// Runs `work` in a task of its own and says whether it finished within `limit`; the caller
    /// goes on either way (awaiting a task that ignores cancellation would wait for ever).
    static func finishes(within limit: Duration, _ work: @escaping @Sendable () async -> Void) async -> Bool {
        let outcome = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(2))
        let working = Task {
            await work()
            outcome.continuation.yield(true)
        }
        let timer = Task {
            try? await Task.sleep(for: limit)
            outcome.continuation.yield(false)
        }
        var iterator = outcome.stream.makeAsyncIterator()
        let finished = await iterator.next() ?? false
        timer.cancel()
        if !finished { working.cancel() }
        return finished
    }

    /// Closes APNs connections, what was given to close with the server (the in-process
    /// sandbox), and the store.
    public func shutdown() async throws {
        await routes.shutdown()
        for close in closing { try? await close() }
        try await store.close()
    }
}

/// Why the server could not start.
public enum ServerError: Error, CustomStringConvertible, Sendable {
    case configuration(String)

    public var description: String {
        switch self {
        case .configuration(let message): message
        }
    }
}
