import Foundation
import HeraldCore
import NIOCore
import NIOPosix
import NIOSSL

/// Sends notifications to APNs over HTTP/2, one stream each, on a pool of connections; retries
/// what can succeed later, and gives every notification a result.
///
/// ```swift
/// let key = try ProviderKey(contentsOfFile: "AuthKey_ABC123DEFG.p8", teamID: "DEF123GHIJ")
/// let client = try APNsClient(configuration: .init(
///     endpoint: .apple(.development), authentication: .token(ProviderTokenSource(key: key))
/// ))
/// let result = await client.send(notification)
/// try await client.shutdown()
/// ```
public final class APNsClient: Sendable {
    public let configuration: APNsClientConfiguration
    private let pool: ConnectionPool
    private let group: any EventLoopGroup
    private let ownsGroup: Bool

    /// Makes a client; nothing connects until the first send (or ``connect()``).
    public init(configuration: APNsClientConfiguration, eventLoopGroup: (any EventLoopGroup)? = nil) throws(APNsClientError) {
        self.configuration = configuration
        let tlsContext = try Self.makeTLSContext(configuration)
        // One event loop per connection, up to one per core: TLS and framing then run in parallel.
        self.group = eventLoopGroup ?? MultiThreadedEventLoopGroup(numberOfThreads: max(1, min(configuration.connections, System.coreCount)))
        self.ownsGroup = eventLoopGroup == nil
        self.pool = ConnectionPool(
            host: configuration.endpoint.host, port: configuration.endpoint.port, tlsContext: tlsContext,
            connectTimeout: configuration.connectTimeout, group: group,
            connections: configuration.connections, streamsPerConnection: configuration.streamsPerConnection,
            pingInterval: configuration.pingInterval, pingTimeout: configuration.pingTimeout
        )
    }

    /// Opens every connection ahead of the first notification.
    public func connect() async throws(APNsClientError) {
        try await pool.warmUp()
    }

    /// The connections open now.
    public var openConnections: Int {
        get async { pool.openConnections }
    }

    /// Sends one notification, retrying as ``RetryPolicy`` says, and reports what became of it.
    public func send(_ notification: PushNotification) async -> APNsResult {
        await send(notification, after: nil)
    }

    /// A first attempt made by the bulk path, handed over when its answer was not a plain 200.
    struct FirstAttempt: Sendable {
        var connection: APNsConnection
        var outcome: Result<APNsConnection.Response, APNsConnection.Failure>
        var token: ProviderToken?
        var start: ContinuousClock.Instant
    }

    /// What an `ExpiredProviderToken` for a token this machine calls `tokenAge` seconds old says
    /// about the two clocks.
    static func clockDisagreement(tokenAge: TimeInterval) -> String {
        let limit = Int(ProviderTokenSource.maximumTokenAge)
        guard tokenAge >= 0 else {
            return "APNs calls the provider token expired, and this machine's clock is now \(Int(-tokenAge)) s before the moment it signed the token: "
                + "the clock moved back. Set this machine's clock (NTP); not sent again with the same token."
        }
        let age = Int(tokenAge)
        let ahead = limit - age
        return "APNs calls the provider token expired (older than \(limit) s), but this machine signed it \(age) s ago: "
            + "the server's clock is at least \(ahead) s (\(ahead / 60) min) ahead of this machine's. Set this machine's clock (NTP). "
            + "Not sent again: the same token would be refused the same way, and a new one within 20 minutes of it draws TooManyProviderTokenUpdates."
    }

    /// The one place where answers are judged and retries decided. `first`, when given, is an
    /// attempt already made; the loop starts by judging it.
    func send(_ notification: PushNotification, after first: FirstAttempt?) async -> APNsResult {
        let start = first?.start ?? ContinuousClock.now
        let policy = configuration.retry
        // Made on the first retry only: seeding reads the system's random source.
        var random: FastRandomGenerator?
        func backoff(after attempt: Int) -> Duration {
            if random == nil { random = FastRandomGenerator() }
            return policy.backoff(after: attempt, using: &random!)
        }
        var result = APNsResult(deviceToken: notification.deviceToken, attempts: first == nil ? 0 : 1, latency: .zero)
        result.requestedID = notification.headers.id
        var tokenRenewed = false
        var resends = 0
        /// Why the last connection that left a request unprocessed broke, if it said.
        var lastBreak: String?
        var carried = first
        var lastConnection = first?.connection
        let body = notification.body.bytes

        while true {
            let outcome: Result<APNsConnection.Response, APNsConnection.Failure>
            let token: ProviderToken?
            if let attempt = carried {
                carried = nil
                outcome = attempt.outcome
                token = attempt.token
            } else {
                let connection: APNsConnection
                do {
                    connection = try await pool.acquire()
                } catch {
                    result.failure = error
                    // A failed connection attempt counts as an attempt and is retried after
                    // back-off. A refused server certificate is not: it fails the same way a
                    // moment later (the pool fails the notifications behind it at once too).
                    if case .certificateRejected = error {
                        result.attempts += 1
                        break
                    }
                    guard case .connectionFailed = error else { break }
                    result.attempts += 1
                    if result.attempts < policy.maximumAttempts {
                        try? await Task.sleep(for: backoff(after: result.attempts))
                        continue
                    }
                    break
                }
                result.attempts += 1
                lastConnection = connection
                do {
                    token = try currentToken()
                } catch {
                    pool.release(connection)
                    result.failure = error
                    break
                }
                let request = APNsConnection.Request(
                    path: notification.path, headers: notification.headers.fields(authorization: token?.authorization), body: body
                )
                do {
                    outcome = .success(try await connection.send(request, timeout: configuration.requestTimeout))
                } catch {
                    outcome = .failure(error)
                }
                pool.release(connection)
            }

            switch outcome {
            case .success(let response):
                result.failure = nil
                Self.record(response, in: &result)
                if response.status == 200 { break }
                let advice = (result.reason ?? APNsReason(rawValue: "")).retry(status: response.status)
                if advice == .afterNewProviderToken, case .token(let source) = configuration.authentication, let token {
                    // Sent again only with a different token: the same JWT would be refused the
                    // same way, and a token too young to replace means the clocks disagree.
                    if !tokenRenewed {
                        do {
                            let renewed = try source.refresh(replacing: token)
                            if renewed != token {
                                tokenRenewed = true
                                continue
                            }
                        } catch {
                            result.detail = "APNs calls the provider token expired, and a new one could not be signed: \(error)"
                            break
                        }
                    }
                    result.detail = Self.clockDisagreement(tokenAge: source.age(of: token))
                    break
                }
                guard advice == .afterBackoff || advice == .onNewConnection, result.attempts < policy.maximumAttempts else { break }
                // The server is closing that connection (Shutdown, IdleTimeout): do not let the
                // retry race its GOAWAY onto it.
                if advice == .onNewConnection { lastConnection?.retire() }
                if advice == .afterBackoff { try? await Task.sleep(for: backoff(after: result.attempts)) }
                continue
            case .failure(.notProcessed(let why)):
                // Never reached the server (GOAWAY, refused stream): not an attempt; resend
                // elsewhere, at once the first times and after a back-off from then on (a server
                // that refuses every stream must not be hammered), a bounded number of times.
                // Resends also stop once the time the attempts were given is spent.
                result.attempts -= 1
                resends += 1
                if let why { lastBreak = why }
                let budget = configuration.requestTimeout * policy.maximumAttempts
                if resends <= Self.maximumResends, ContinuousClock.now - start < budget {
                    if resends > Self.immediateResends { try? await Task.sleep(for: backoff(after: resends - Self.immediateResends)) }
                    continue
                }
                result.failure = .connectionLost(
                    "the server did not process the request in \(resends) tries (GOAWAY, REFUSED_STREAM or a connection lost before it was sent)"
                        + (lastBreak.map { "; the last connection broke: \($0)" } ?? "")
                )
            case .failure(.notOpened(let why)):
                result.failure = .connectionFailed(why)
                if result.attempts < policy.maximumAttempts {
                    try? await Task.sleep(for: backoff(after: result.attempts))
                    continue
                }
            case .failure(.timeout):
                result.failure = .timeout
                if result.attempts < policy.maximumAttempts {
                    try? await Task.sleep(for: backoff(after: result.attempts))
                    continue
                }
            case .failure(.lost(let why)):
                result.failure = .connectionLost(why)
                if result.attempts < policy.maximumAttempts {
                    try? await Task.sleep(for: backoff(after: result.attempts))
                    continue
                }
            }
            break
        }
        result.latency = ContinuousClock.now - start
        return result
    }

    /// How many times a notification the server never processed (GOAWAY, REFUSED_STREAM) is
    /// sent again; these resends are not attempts, but they are bounded: the first
    /// ``immediateResends`` at once (a connection that says GOAWAY in a busy run refuses many
    /// streams, which the next connections take), then after the retry policy's back-off, and
    /// none once the request timeout times the attempts has passed since the first try.
    static let maximumResends = 20
    static let immediateResends = 3

    /// Puts a PKCS#12 bundle's certificate chain and key in `tls`; `what` names it in the error.
    private static func use(_ tls: inout TLSConfiguration, _ what: String, _ open: () throws -> NIOSSLPKCS12Bundle) throws(APNsClientError) {
        do {
            let bundle = try open()
            tls.certificateChain = bundle.certificateChain.map { .certificate($0) }
            tls.privateKey = .privateKey(bundle.privateKey)
        } catch {
            throw .credentials("cannot open \(what) (wrong password, or not a .p12 with a certificate and its key): \(error)")
        }
    }

    /// The provider token to send, for token authentication.
    private func currentToken() throws(APNsClientError) -> ProviderToken? {
        guard case .token(let source) = configuration.authentication else { return nil }
        do {
            return try source.currentToken()
        } catch {
            throw .credentials(error.description)
        }
    }

    /// Copies what an answer says into a result.
    static func record(_ response: APNsConnection.Response, in result: inout APNsResult) {
        result.status = response.status
        result.apnsID = response.apnsID
        result.uniqueID = response.uniqueID
        let errorBody = response.status == 200 ? nil : APNsErrorBody(bytes: response.body)
        result.reason = errorBody?.reason
        result.timestamp = errorBody?.date
        result.timestampMilliseconds = errorBody?.timestamp
    }

    /// Sends every notification of a sequence, as many at once as the connections allow, and
    /// yields each result as it comes (not in the sequence's order).
    ///
    /// First attempts run without a task each: a notification is written from the event loop
    /// and its 200 answer becomes a result there. Anything else (an error answer, a timeout, a
    /// lost connection) goes to ``send(_:)``'s logic in a task, with the attempt already made.
    public func send<Notifications: AsyncSequence & Sendable>(all notifications: Notifications) -> APNsResults
    where Notifications.Element == PushNotification {
        let limit = 2 * configuration.connections * configuration.streamsPerConnection
        return APNsResults(batches: AsyncThrowingStream { continuation in
            let tracker = BulkTracker(continuation: continuation, limit: limit)
            let task = Task {
                do {
                    for try await notification in notifications {
                        try Task.checkCancellation()
                        await tracker.waitForRoom()
                        tracker.begin()
                        // No connection or no credentials now: the full path retries and reports.
                        let connection: APNsConnection
                        do {
                            connection = try await pool.acquire()
                        } catch {
                            Task { tracker.finish(await self.send(notification)) }
                            continue
                        }
                        let token: ProviderToken?
                        do {
                            token = try currentToken()
                        } catch {
                            pool.release(connection)
                            Task { tracker.finish(await self.send(notification)) }
                            continue
                        }
                        startFirstAttempt(notification, token: token, on: connection, tracker: tracker)
                    }
                    tracker.inputDone()
                } catch {
                    tracker.fail(error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        })
    }

    private func startFirstAttempt(_ notification: PushNotification, token: ProviderToken?, on connection: APNsConnection, tracker: BulkTracker) {
        let start = ContinuousClock.now
        let request = APNsConnection.Request(
            path: notification.path, headers: notification.headers.fields(authorization: token?.authorization), body: notification.body.bytes
        )
        connection.start(request, timeout: configuration.requestTimeout) { [pool] outcome in
            pool.release(connection)
            if case .success(let response) = outcome, response.status == 200 {
                var result = APNsResult(deviceToken: notification.deviceToken, attempts: 1, latency: ContinuousClock.now - start)
                result.requestedID = notification.headers.id
                Self.record(response, in: &result)
                tracker.finish(result)
            } else {
                Task { tracker.finish(await self.send(notification, after: FirstAttempt(connection: connection, outcome: outcome, token: token, start: start))) }
            }
        }
    }

    /// Waits for the notifications in flight, closes the connections and stops.
    public func shutdown() async throws {
        await pool.shutdown()
        if ownsGroup { try await group.shutdownGracefully() }
    }

    private static func makeTLSContext(_ configuration: APNsClientConfiguration) throws(APNsClientError) -> NIOSSLContext? {
        guard case .tls(let trusted) = configuration.transport else { return nil }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        tls.applicationProtocols = ["h2"]
        do {
            if let trusted { tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(trusted)) }
        } catch {
            throw .credentials("cannot read the certificate to trust, \(trusted ?? ""): \(error)")
        }
        switch configuration.authentication {
        case .certificate(let certificatePath, let keyPath):
            do {
                tls.certificateChain = try NIOSSLCertificate.fromPEMFile(certificatePath).map { .certificate($0) }
                tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: keyPath, format: .pem))
            } catch {
                throw .credentials("cannot read the client certificate \(certificatePath) or its key \(keyPath): \(error)")
            }
        case .pkcs12(let path, let password):
            try Self.use(&tls, "the PKCS#12 file \(path)") { try NIOSSLPKCS12Bundle(file: path, passphrase: password.map { Array($0.utf8) }) }
        case .pkcs12Data(let bytes, let password):
            try Self.use(&tls, "the PKCS#12 certificate") { try NIOSSLPKCS12Bundle(buffer: bytes, passphrase: password.map { Array($0.utf8) }) }
        case .token:
            break
        }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw .credentials("TLS set-up failed: \(error)")
        }
    }
}
