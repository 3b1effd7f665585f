import Crypto
import Foundation
import HeraldAPNs
import HeraldCore
import HeraldSandbox
import NIOCore
import NIOPosix
import Testing

/// A HeraldSandbox over TLS with one registered provider key, and a client for it.
struct ClientFixture {
    static let bundleID = "com.example.app"
    let sandbox: Sandbox
    let key: ProviderKey
    let tokens: ProviderTokenSource

    static func start(burstLimit: Int = .max) async throws -> ClientFixture {
        let key = try ProviderKey(privateKey: P256.Signing.PrivateKey(), keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let sandbox = try await Sandbox.start(SandboxConfiguration(
            port: 0, adminPort: nil, autoAccept: true, burstLimit: burstLimit,
            providerKeys: [.init(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey)]
        ), eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
        return ClientFixture(sandbox: sandbox, key: key, tokens: ProviderTokenSource(key: key))
    }

    func client(
        authentication: APNsClientConfiguration.Authentication? = nil, connections: Int = 2, timeout: Duration = .seconds(10),
        retry: RetryPolicy = RetryPolicy(maximumAttempts: 3, initialBackoff: .milliseconds(5))
    ) throws -> APNsClient {
        try APNsClient(configuration: APNsClientConfiguration(
            endpoint: .custom(host: "127.0.0.1", port: sandbox.port), transport: .tls(trustedCertificate: sandbox.certificatePath),
            authentication: authentication ?? .token(tokens), connections: connections, requestTimeout: timeout, retry: retry
        ), eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
    }

    func notification(token: String = String(repeating: "ab", count: 32), pushType: PushType = .alert) throws -> PushNotification {
        PushNotification(
            deviceToken: try DeviceToken(parsing: token),
            body: .payload(.alert(title: "Hello", body: "World")),
            headers: NotificationHeaders(pushType: pushType, topic: Self.bundleID)
        )
    }

    func stop() async {
        try? await sandbox.shutdown()
    }
}

@Suite struct ClientTests {
    @Test func sendsOverTLSWithAProviderToken() async throws {
        let fixture = try await ClientFixture.start()
        let client = try fixture.client()
        let result = await client.send(try fixture.notification())
        #expect(result.isSuccess, "\(result)")
        #expect(result.attempts == 1 && result.apnsID?.count == 36 && result.uniqueID?.count == 36)
        #expect(fixture.sandbox.state.received(token: String(repeating: "ab", count: 32)).count == 1)
        try await client.shutdown()
        await fixture.stop()
    }

    @Test func unregisteredTokensReport410WithTheTimestamp() async throws {
        let fixture = try await ClientFixture.start()
        let device = try fixture.sandbox.state.register(topic: ClientFixture.bundleID)
        _ = try fixture.sandbox.state.unregister(token: device.token)
        let client = try fixture.client()
        let result = await client.send(try fixture.notification(token: device.token))
        #expect(result.status == 410 && result.reason == .unregistered, "\(result)")
        #expect(result.timestamp != nil && result.tokenAction == .deactivate && result.attempts == 1)
        try await client.shutdown()
        await fixture.stop()
    }

    @Test func serverErrorsAreRetriedWithBackoffUpToTheLimit() async throws {
        let fixture = try await ClientFixture.start()
        let client = try fixture.client(retry: RetryPolicy(maximumAttempts: 4, initialBackoff: .milliseconds(5)))
        try fixture.sandbox.state.setFaults(FaultPlan(script: [.serviceUnavailable, .internalServerError, .tooManyRequests]))
        let recovered = await client.send(try fixture.notification())
        #expect(recovered.isSuccess && recovered.attempts == 4, "\(recovered)")
        try fixture.sandbox.state.setFaults(FaultPlan(script: Array(repeating: .serviceUnavailable, count: 5)))
        let givenUp = await client.send(try fixture.notification())
        #expect(givenUp.status == 503 && givenUp.reason == .serviceUnavailable && givenUp.attempts == 4, "\(givenUp)")
        try await client.shutdown()
        await fixture.stop()
    }

    @Test func requestsThatCannotSucceedAreNotRetried() async throws {
        let fixture = try await ClientFixture.start()
        let client = try fixture.client()
        var bad = try fixture.notification()
        bad.headers.topic = "com.example.app.voip"   // alert push to a VoIP topic
        let result = await client.send(bad)
        #expect(result.status == 400 && result.attempts == 1, "\(result)")
        try await client.shutdown()
        await fixture.stop()
    }

    @Test func aSlowAnswerTimesOut() async throws {
        let fixture = try await ClientFixture.start()
        try fixture.sandbox.state.setFaults(FaultPlan(latencyMilliseconds: 3000))
        let client = try fixture.client(connections: 1, timeout: .milliseconds(200), retry: .never)
        try await client.connect()   // so the latency below is the wait for the answer alone
        let result = await client.send(try fixture.notification())
        #expect(result.failure == .timeout && result.status == nil, "\(result)")
        // The answer would come after 3 s; well before that means the 200 ms timeout fired
        // (with room for a loaded machine).
        #expect(result.latency < .milliseconds(2500), "the timeout fired late: \(result.latency)")
        try fixture.sandbox.state.setFaults(FaultPlan())
        try await client.shutdown()
        await fixture.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func goAwayMidRunLosesAndDuplicatesNothing() async throws {
        let fixture = try await ClientFixture.start()
        try fixture.sandbox.state.setFaults(FaultPlan(goAwayAfterStreams: 40))
        let client = try fixture.client(connections: 3)
        let tokens = (0..<400).map { String(format: "%04x", $0) + String(repeating: "0", count: 60) }
        let notifications = try tokens.map { try fixture.notification(token: $0) }
        var results: [APNsResult] = []
        for try await result in client.send(all: notifications.async) { results.append(result) }
        #expect(results.count == 400)
        let failures = results.filter { !$0.isSuccess }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        let received = tokens.map { fixture.sandbox.state.received(token: $0).count }
        #expect(received.allSatisfy { $0 == 1 }, "received counts \(Set(received))")
        try fixture.sandbox.state.setFaults(FaultPlan())
        try await client.shutdown()
        await fixture.stop()
    }

    @Test func aResetConnectionIsReplaced() async throws {
        let fixture = try await ClientFixture.start()
        try fixture.sandbox.state.setFaults(FaultPlan(resetAfterStreams: 5))
        let client = try fixture.client(connections: 1)
        for index in 0..<12 {
            let result = await client.send(try fixture.notification(token: String(format: "%02x", index) + String(repeating: "1", count: 62)))
            #expect(result.isSuccess, "\(index): \(result)")
        }
        try fixture.sandbox.state.setFaults(FaultPlan())
        try await client.shutdown()
        await fixture.stop()
    }

    @Test func oneSharedTokenHoweverManyConnections() async throws {
        let fixture = try await ClientFixture.start()
        let client = try fixture.client(connections: 4)
        try await client.connect()
        #expect(await client.openConnections == 4)
        var results: [APNsResult] = []
        let notifications = try (0..<200).map { try fixture.notification(token: String(format: "%04x", $0) + String(repeating: "2", count: 60)) }
        for try await result in client.send(all: notifications.async) { results.append(result) }
        #expect(results.count == 200 && results.allSatisfy(\.isSuccess))
        #expect(fixture.tokens.mintedCount == 1)
        try await client.shutdown()
        await fixture.stop()
    }

    @Test func certificateAuthentication() async throws {
        let fixture = try await ClientFixture.start()
        let issued = try PushCertificateIssuer().issue(bundleID: ClientFixture.bundleID)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        try issued.certificatePEM.write(toFile: certificate, atomically: true, encoding: .utf8)
        try issued.privateKeyPEM.write(toFile: key, atomically: true, encoding: .utf8)
        let client = try fixture.client(authentication: .certificate(certificatePath: certificate, privateKeyPath: key))
        let result = await client.send(try fixture.notification())
        #expect(result.isSuccess, "\(result)")
        try await client.shutdown()
        await fixture.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

extension Array where Element: Sendable {
    /// The array as an async sequence, for the bulk API.
    var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}

@Suite struct ClientFailureTests {
    @Test func anUnreachableServerIsRetriedThenReported() async throws {
        // A port nothing listens on: bind one, note it, close it.
        let probe = try await ServerBootstrapProbe.freePort()
        let client = try APNsClient(configuration: APNsClientConfiguration(
            endpoint: .custom(host: "127.0.0.1", port: probe), transport: .cleartext,
            authentication: .token(ProviderTokenSource(key: try ProviderKey(privateKey: P256.Signing.PrivateKey(), keyID: "ABC123DEFG", teamID: "DEF123GHIJ"))),
            retry: RetryPolicy(maximumAttempts: 3, initialBackoff: .milliseconds(5))
        ), eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
        let notification = PushNotification(
            deviceToken: try DeviceToken(parsing: String(repeating: "ab", count: 32)), body: .payload(.alert(title: "Hi", body: "there")),
            headers: NotificationHeaders(pushType: .alert, topic: "com.example.app")
        )
        let result = await client.send(notification)
        #expect(result.status == nil && result.attempts == 3, "\(result)")
        if case .connectionFailed = result.failure {} else { Issue.record("expected connectionFailed, got \(String(describing: result.failure))") }
        try await client.shutdown()
    }

    @Test func unreadableCredentialsAreExplained() throws {
        #expect(throws: APNsClientError.self) {
            try APNsClient(configuration: APNsClientConfiguration(
                endpoint: .apple(.development), transport: .tls(trustedCertificate: "/nonexistent/ca.pem"),
                authentication: .certificate(certificatePath: "/nonexistent/cert.pem", privateKeyPath: "/nonexistent/key.pem")
            ))
        }
    }

    @Test func backoffIsJitteredAndBounded() {
        let policy = RetryPolicy(maximumAttempts: 10, initialBackoff: .milliseconds(100), maximumBackoff: .seconds(1))
        var random = FastRandomGenerator(seed: 1)
        for attempt in 1...9 {
            let bound = min(Duration.milliseconds(100) * (1 << (attempt - 1)), .seconds(1))
            let waits = (0..<50).map { _ in policy.backoff(after: attempt, using: &random) }
            #expect(waits.allSatisfy { $0 >= .zero && $0 <= bound })
            #expect(Set(waits).count > 40, "jitter")
        }
    }
}

/// Finds a loopback port with nothing listening on it.
enum ServerBootstrapProbe {
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress!.port!
        try await channel.close()
        return port
    }
}

@Suite struct PKCS12Tests {
    @Test func certificateAuthenticationFromAP12File() async throws {
        let fixture = try await ClientFixture.start()
        let issued = try PushCertificateIssuer().issue(bundleID: ClientFixture.bundleID)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-p12-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pem = directory.appendingPathComponent("both.pem").path
        try (issued.certificatePEM + "\n" + issued.privateKeyPEM + "\n").write(toFile: pem, atomically: true, encoding: .utf8)
        let p12 = directory.appendingPathComponent("push.p12").path
        // openssl makes the .p12 as Keychain Access would export it (.ci/run installs openssl).
        let made = try runOpenSSL(["pkcs12", "-export", "-in", pem, "-out", p12, "-passout", "pass:secret"])
        #expect(made == 0)
        let client = try fixture.client(authentication: .pkcs12(path: p12, password: "secret"))
        let result = await client.send(try fixture.notification())
        #expect(result.isSuccess, "\(result)")
        try await client.shutdown()
        #expect(throws: APNsClientError.self) { try fixture.client(authentication: .pkcs12(path: p12, password: "wrong")) }
        // The same bundle from memory, as the App Server keeps it (never written to a file).
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: p12)))
        let fromMemory = try fixture.client(authentication: .pkcs12Data(bytes, password: "secret"))
        let second = await fromMemory.send(try fixture.notification())
        #expect(second.isSuccess, "\(second)")
        try await fromMemory.shutdown()
        #expect(throws: APNsClientError.self) { try fixture.client(authentication: .pkcs12Data(bytes, password: "wrong")) }
        await fixture.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    func runOpenSSL(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A server that says its HTTP/2 SETTINGS and then nothing at all, like a half-open connection.
final class SilentHTTP2Server: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(NIOAny(ByteBuffer(bytes: [0, 0, 0, 0x4, 0, 0, 0, 0, 0])), promise: nil)
    }
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}

@Suite struct PingTests {
    func client(port: Int, transport: APNsClientConfiguration.Transport, pingTimeout: Duration = .milliseconds(300)) throws -> APNsClient {
        try APNsClient(configuration: APNsClientConfiguration(
            endpoint: .custom(host: "127.0.0.1", port: port), transport: transport,
            authentication: .token(ProviderTokenSource(key: try ProviderKey(privateKey: P256.Signing.PrivateKey(), keyID: "ABC123DEFG", teamID: "DEF123GHIJ"))),
            connections: 1, pingInterval: .milliseconds(100), pingTimeout: pingTimeout
        ), eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
    }

    @Test func aSilentConnectionIsFoundDeadByPing() async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(SilentHTTP2Server()) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let client = try client(port: server.localAddress!.port!, transport: .cleartext)
        try await client.connect()
        #expect(await client.openConnections == 1)
        // Polled, not slept once: a loaded machine may run the timers late.
        let deadline = ContinuousClock.now + .seconds(15)
        while await client.openConnections > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(await client.openConnections == 0, "the unanswered PING should have closed it")
        try await client.shutdown()
        try await server.close()
    }

    @Test func aLiveIdleConnectionStaysOpen() async throws {
        let fixture = try await ClientFixture.start()
        // A generous timeout: the test suite loads the machine, and a late ACK is still an ACK.
        let client = try client(port: fixture.sandbox.port, transport: .tls(trustedCertificate: fixture.sandbox.certificatePath), pingTimeout: .seconds(5))
        try await client.connect()
        try await Task.sleep(for: .milliseconds(1000))
        #expect(await client.openConnections == 1)
        try await client.shutdown()
        await fixture.stop()
    }
}

@Suite struct ExpiredTokenTests {
    @Test func anExpiredTokenIsRenewedOnceNotInALoop() async throws {
        let fixture = try await ClientFixture.start()
        // The provider's clock is two hours behind the sandbox's: every token it signs is already
        // expired there. The client asks its source for a new token once, then reports.
        let clock = ManualClock(Date().addingTimeInterval(-2 * 3600))
        let tokens = ProviderTokenSource(key: fixture.key, clock: clock)
        let client = try fixture.client(authentication: .token(tokens))
        let result = await client.send(try fixture.notification())
        #expect(result.status == 403 && result.reason == .expiredProviderToken, "\(result)")
        #expect(result.attempts == 1, "the same token would be refused again, so it is not sent again")
        #expect(tokens.mintedCount == 1, "a token younger than 20 minutes is not replaced (that would draw TooManyProviderTokenUpdates)")
        let detail = try #require(result.detail)
        #expect(detail.contains("but this machine signed it 0 s ago") && detail.contains("at least 3600 s (60 min) ahead"), "\(detail)")

        // With the clock right, the next send gets a fresh token and goes through.
        clock.set(Date())
        let recovered = await client.send(try fixture.notification())
        #expect(recovered.isSuccess, "\(recovered)")
        try await client.shutdown()
        await fixture.stop()
    }
}
