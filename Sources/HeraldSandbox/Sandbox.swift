import Foundation
import HeraldCore
import Logging
import NIOCore
import HeraldHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// APNs on your machine: an HTTP/2 server that answers exactly as Apple's does, keeps
/// notifications for offline devices as Apple does, and can be told to misbehave. An admin API
/// (HTTP/1.1 JSON) registers devices and keys, shows what each device received and injects faults.
///
/// ```swift
/// let sandbox = try await Sandbox.start(SandboxConfiguration(port: 0, adminPort: 0, autoAccept: true))
/// print(sandbox.port, sandbox.certificatePath ?? "cleartext")
/// …
/// try await sandbox.shutdown()
/// ```
public final class Sandbox: Sendable {
    public let configuration: SandboxConfiguration
    /// Devices, keys, deliveries, counters and faults.
    public let state: SandboxState
    /// The APNs port actually bound.
    public let port: Int
    /// The admin API's port, when enabled.
    public let adminPort: Int?
    /// The PEM certificate clients should trust (TLS only).
    public let certificatePath: String?

    private let group: any EventLoopGroup
    private let ownsGroup: Bool
    private let serverChannel: any Channel
    private let adminChannel: (any Channel)?
    private let connections: ConnectionRegistry
    private let log: Logger

    private init(
        configuration: SandboxConfiguration, state: SandboxState, port: Int, adminPort: Int?, certificatePath: String?,
        group: any EventLoopGroup, ownsGroup: Bool, serverChannel: any Channel, adminChannel: (any Channel)?,
        connections: ConnectionRegistry
    ) {
        self.configuration = configuration
        self.state = state
        self.port = port
        self.adminPort = adminPort
        self.certificatePath = certificatePath
        self.group = group
        self.ownsGroup = ownsGroup
        self.serverChannel = serverChannel
        self.adminChannel = adminChannel
        self.connections = connections
        self.log = configuration.logger
    }

    /// Starts listening. `onRequest` is called with every answered request (for the one-line log).
    public static func start(
        _ configuration: SandboxConfiguration,
        eventLoopGroup: (any EventLoopGroup)? = nil,
        onRequest: (@Sendable (SandboxRequestLog) -> Void)? = nil
    ) async throws -> Sandbox {
        let group = eventLoopGroup ?? MultiThreadedEventLoopGroup(numberOfThreads: configuration.threads ?? System.coreCount)
        let state = SandboxState(configuration: configuration)
        let (tlsContext, certificatePath) = try makeTLS(configuration)
        let registry = ConnectionRegistry()
        let evaluator = RequestEvaluator(state: state)
        let idleTimeout = configuration.idleTimeout.map { TimeAmount.nanoseconds(Int64($0 * 1_000_000_000)) }
        let maxStreams = configuration.maxConcurrentStreams

        let maxConnections = configuration.maxConnections
        let handshakeTimeout = TimeAmount.nanoseconds(Int64(configuration.handshakeTimeout * 1_000_000_000))
        let log = configuration.logger

        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                // Out of file descriptors, accept() fails at once, again and again: pause
                // accepting for a second instead of spinning.
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptPauseHandler(logger: log))
                }
            }
            .childChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard registry.add(channel, limit: maxConnections) else {
                        channel.close(promise: nil)
                        return
                    }
                    let connection = ObjectIdentifier(channel)
                    channel.closeFuture.whenComplete { _ in registry.remove(channel) }
                    let pipeline = channel.pipeline.syncOperations
                    if let tlsContext {
                        // Client certificates are optional (token auth sends none) and any is let in:
                        // like APNs, the sandbox answers a bad one per request with BadCertificate.
                        try pipeline.addHandler(NIOSSLServerHandler(context: tlsContext, customVerificationCallback: { _, promise in
                            promise.succeed(.certificateVerified)
                        }))
                    }
                    // One stream until the first valid token (APNsConnectionHandler raises it); header
                    // blocks are checked by APNsConnectionHandler as it reads them.
                    try pipeline.addHandler(HTTP2FramingHandler(
                        role: .server,
                        configuration: HTTP2FramingConfiguration(maxConcurrentStreams: 1, maxHeaderListSize: 16 * 1024, settingsTimeout: handshakeTimeout)
                    ))
                    try pipeline.addHandler(APNsConnectionHandler(
                        evaluator: evaluator, authentication: ConnectionAuthentication(),
                        maxConcurrentStreams: maxStreams, idleTimeout: idleTimeout,
                        onFirstRequest: { registry.markActive(connection) }, onRequest: onRequest
                    ))
                }
            }
        let serverChannel: any Channel
        do {
            serverChannel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        } catch {
            if eventLoopGroup == nil { try? await group.shutdownGracefully() }
            throw SandboxError.invalid("cannot listen on \(configuration.host):\(configuration.port): \(error)")
        }
        var adminChannel: (any Channel)?
        if let adminPort = configuration.adminPort {
            do {
                adminChannel = try await AdminServer.bind(host: configuration.host, port: adminPort, state: state, group: group)
            } catch {
                try? await serverChannel.close()
                if eventLoopGroup == nil { try? await group.shutdownGracefully() }
                throw SandboxError.invalid("cannot listen for the admin API on \(configuration.host):\(adminPort): \(error)")
            }
        }
        if configuration.providerKeys.isEmpty {
            configuration.logger.notice("no provider key registered: any well-formed ES256 token is accepted without checking its signature")
        }
        return Sandbox(
            configuration: configuration, state: state, port: serverChannel.localAddress?.port ?? configuration.port,
            adminPort: adminChannel?.localAddress?.port, certificatePath: certificatePath, group: group,
            ownsGroup: eventLoopGroup == nil, serverChannel: serverChannel, adminChannel: adminChannel, connections: registry
        )
    }

    /// Stops accepting, sends GOAWAY `Shutdown` on every open connection, closes them, removes a
    /// certificate it wrote to a temporary file, and stops.
    public func shutdown() async throws {
        try? await serverChannel.close()
        try? await adminChannel?.close()
        let open = connections.all
        // Connections get the grace period to finish, then are closed whatever they wait for.
        let grace = TimeAmount.nanoseconds(Int64(configuration.shutdownGrace * 1_000_000_000))
        for channel in open {
            channel.pipeline.fireUserInboundEventTriggered(SandboxShutdownEvent(grace: grace))
        }
        for channel in open {
            _ = try? await channel.closeFuture.get()
        }
        // A certificate written to a temporary file for this run goes with it.
        if case .tlsSelfSigned(nil) = configuration.transport, let certificatePath {
            try? FileManager.default.removeItem(atPath: certificatePath)
        }
        if ownsGroup { try await group.shutdownGracefully() }
    }

    /// The number of open APNs connections.
    public var openConnections: Int { connections.count }

    private static func makeTLS(_ configuration: SandboxConfiguration) throws -> (NIOSSLContext?, String?) {
        let certificatePEM: String
        let keyPEM: String
        let certificatePath: String
        switch configuration.transport {
        case .cleartext:
            return (nil, nil)
        case .tls(let certificateFile, let keyFile):
            guard let certificate = try? String(contentsOfFile: certificateFile, encoding: .utf8) else {
                throw SandboxError.invalid("cannot read the certificate \(certificateFile); expected a PEM file (-----BEGIN CERTIFICATE-----)")
            }
            guard let key = try? String(contentsOfFile: keyFile, encoding: .utf8) else {
                throw SandboxError.invalid("cannot read the private key \(keyFile); expected a PEM file (-----BEGIN PRIVATE KEY-----)")
            }
            certificatePEM = certificate
            keyPEM = key
            certificatePath = certificateFile
        case .tlsSelfSigned(let path):
            // Clients check validity against the real time, never the sandbox's (possibly virtual) clock.
            let generated = try SelfSignedCertificate.generate(now: Date())
            certificatePEM = generated.certificatePEM
            keyPEM = generated.privateKeyPEM
            certificatePath = path ?? FileManager.default.temporaryDirectory
                .appendingPathComponent("herald-sandbox-\(UUID().uuidString.prefix(8)).pem").path
            do {
                try Data(certificatePEM.utf8).write(to: URL(fileURLWithPath: certificatePath), options: .atomic)
            } catch {
                throw SandboxError.invalid("cannot write the sandbox certificate to \(certificatePath): \(error.localizedDescription)")
            }
        }
        let chain: [NIOSSLCertificate]
        let key: NIOSSLPrivateKey
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8))
            key = try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
        } catch {
            throw SandboxError.invalid("the certificate or key is not valid PEM: \(error)")
        }
        guard !chain.isEmpty else { throw SandboxError.invalid("the certificate file holds no certificate") }
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        tls.minimumTLSVersion = .tlsv12
        tls.applicationProtocols = ["h2"]
        tls.certificateVerification = .optionalVerification
        return (try NIOSSLContext(configuration: tls), certificatePath)
    }
}
