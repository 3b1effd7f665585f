import Crypto
import HeraldAPNs
import HeraldCore
import HeraldSandbox
import Logging

/// Where a benchmark sends: an in-process HeraldSandbox (TLS on loopback, tokens auto-accepted,
/// no burst limit), or a server given by URL.
struct BenchTarget {
    let endpoint: APNsClientConfiguration.Endpoint
    let transport: APNsClientConfiguration.Transport
    /// The server's `https://…` address and the certificate to trust, for an App Server's route.
    let url: String
    let certificate: String?
    /// What the report calls it.
    let name: String
    /// The connections and streams to open to it.
    let options: BenchTargetOptions
    private let sandbox: Sandbox?

    /// Starts an in-process sandbox unless the options name a server.
    static func start(_ options: BenchTargetOptions, command: String) async throws -> BenchTarget {
        if let url = options.url {
            guard let server = APNsServerURL(url) else {
                throw CommandError("--url must look like \(APNsServerURL.expectedForm); got '\(url)'").exit(command: command)
            }
            return BenchTarget(
                endpoint: server.endpoint, transport: server.transport(trustedCertificate: options.cacert), url: url,
                certificate: options.cacert, name: url, options: options, sandbox: nil
            )
        }
        var logger = Logger(label: "herald.bench.sandbox")
        logger.logLevel = .error
        let sandbox = try await Sandbox.start(SandboxConfiguration(
            port: 0, adminPort: nil, autoAccept: true, burstLimit: .max, deliveriesKeptPerDevice: 1, logger: logger
        ))
        return BenchTarget(
            endpoint: .custom(host: "127.0.0.1", port: sandbox.port), transport: .tls(trustedCertificate: sandbox.certificatePath),
            url: "https://127.0.0.1:\(sandbox.port)", certificate: sandbox.certificatePath, name: "in-process HeraldSandbox (TLS, loopback)",
            options: options, sandbox: sandbox
        )
    }

    /// A connected client with `authentication`, or else with a fresh provider key. A fresh key
    /// id and team per run: a server that saw another run's token for the same team and key
    /// within 20 minutes would rightly answer TooManyProviderTokenUpdates.
    func connectedClient(authentication given: APNsClientConfiguration.Authentication? = nil, command: String) async throws -> APNsClient {
        let authentication: APNsClientConfiguration.Authentication
        if let given {
            authentication = given
        } else {
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
            let randomID = { String((0..<10).map { _ in alphabet.randomElement()! }) }
            let key = try ProviderKey(privateKey: P256.Signing.PrivateKey(), keyID: randomID(), teamID: randomID())
            authentication = .token(ProviderTokenSource(key: key))
        }
        let client = try APNsClient(configuration: APNsClientConfiguration(
            endpoint: endpoint, transport: transport, authentication: authentication,
            connections: options.connections, streamsPerConnection: options.streams, retry: .never
        ))
        do {
            try await client.connect()
        } catch {
            try? await client.shutdown()
            try? await shutdown()
            throw CommandError(error.description).exit(command: command)
        }
        return client
    }

    /// Stops the in-process sandbox, if there is one.
    func shutdown() async throws {
        try await sandbox?.shutdown()
    }

    /// The benchmark's device tokens: 32 bytes, the first four counting up.
    static func tokens(_ count: Int) throws -> [DeviceToken] {
        try (0..<count).map { try DeviceToken(parsing: hexToken($0)) }
    }

    /// The `index`th benchmark token in hex.
    static func hexToken(_ index: Int) -> String {
        let digits = String(index, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + String(repeating: "ab", count: 28)
    }
}
