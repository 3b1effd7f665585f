import Crypto
import Foundation
import HeraldCore
import HeraldSandbox
import NIOCore
import NIOPosix

/// A running sandbox for one test, with keys and tokens to talk to it.
struct SandboxFixture {
    static let group = MultiThreadedEventLoopGroup.singleton
    static let bundleID = "com.example.app"

    let sandbox: Sandbox
    let clock: ManualClock
    let key: ProviderKey

    var state: SandboxState { sandbox.state }

    /// Starts a sandbox on a free port. `registerKey` makes it verify signatures with `key`.
    static func start(
        tls: Bool = false, autoAccept: Bool = false, registerKey: Bool = true, environment: APNsEnvironment = .development,
        burstLimit: Int = 300, idleTimeout: TimeInterval? = nil, maxStreams: Int = 1000
    ) async throws -> SandboxFixture {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
        let key = try ProviderKey(privateKey: P256.Signing.PrivateKey(), keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let configuration = SandboxConfiguration(
            port: 0, transport: tls ? .tlsSelfSigned(certificatePath: nil) : .cleartext, adminPort: 0,
            environment: environment, autoAccept: autoAccept, maxConcurrentStreams: maxStreams, burstLimit: burstLimit,
            idleTimeout: idleTimeout,
            providerKeys: registerKey ? [.init(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey)] : [],
            clock: clock
        )
        let sandbox = try await Sandbox.start(configuration, eventLoopGroup: group)
        return SandboxFixture(sandbox: sandbox, clock: clock, key: key)
    }

    func stop() async {
        try? await sandbox.shutdown()
    }

    /// Connects; `validatingHeaders: false` lets the client send malformed header blocks.
    func connect(validatingHeaders: Bool = true) async throws -> H2TestClient {
        try await H2TestClient.connect(port: sandbox.port, group: Self.group, trusting: sandbox.certificatePath, validatingHeaders: validatingHeaders)
    }

    /// Connects over TLS presenting `certificate` (certificate authentication).
    func connect(presenting certificate: PushCertificateIssuer.Issued) async throws -> H2TestClient {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certPath = directory.appendingPathComponent("cert.pem").path
        let keyPath = directory.appendingPathComponent("key.pem").path
        try certificate.certificatePEM.write(toFile: certPath, atomically: true, encoding: .utf8)
        try certificate.privateKeyPEM.write(toFile: keyPath, atomically: true, encoding: .utf8)
        return try await H2TestClient.connect(port: sandbox.port, group: Self.group, trusting: sandbox.certificatePath, clientCertificate: (certPath, keyPath))
    }

    /// A token signed now (by the sandbox's clock) with `key`.
    func bearer(_ key: ProviderKey? = nil, issuedAt: Date? = nil) throws -> String {
        try ProviderToken(signedWith: key ?? self.key, issuedAt: issuedAt ?? clock.now).authorization
    }

    /// Registers a fresh device for the bundle id (or another topic).
    func device(topic: String = bundleID, online: Bool = true) throws -> String {
        try state.register(topic: topic, online: online).token
    }

    /// Standard headers for an alert push.
    func headers(authorization: String? = nil, pushType: String = "alert", topic: String = bundleID, extra: [(String, String)] = []) throws -> [(String, String)] {
        var headers: [(String, String)] = [("authorization", try authorization ?? bearer()), ("apns-push-type", pushType), ("apns-topic", topic)]
        headers += extra
        return headers
    }
}

let alertPayload = #"{"aps":{"alert":{"title":"Hello","body":"World"}}}"#
