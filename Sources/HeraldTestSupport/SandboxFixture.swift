import Crypto
import Foundation
import HeraldAPNs
import HeraldCore
import HeraldSandbox
import NIOPosix

/// An in-process `herald sandbox` that checks provider tokens, and a provider client that signs
/// for it over HTTP/2 and TLS. Tests only.
public struct SandboxFixture: Sendable {
    public let sandbox: Sandbox
    public let client: APNsClient
    public var adminURL: URL { URL(string: "http://127.0.0.1:\(sandbox.adminPort!)")! }

    public static func start() async throws -> SandboxFixture {
        let key = try ProviderKey(privateKey: P256.Signing.PrivateKey(), keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let sandbox = try await Sandbox.start(SandboxConfiguration(
            port: 0, adminPort: 0, autoAccept: false,
            providerKeys: [.init(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey)]
        ), eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
        let client = try APNsClient(configuration: APNsClientConfiguration(
            endpoint: .custom(host: "127.0.0.1", port: sandbox.port), transport: .tls(trustedCertificate: sandbox.certificatePath),
            authentication: .token(ProviderTokenSource(key: key))
        ), eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
        return SandboxFixture(sandbox: sandbox, client: client)
    }

    /// Sends an alert push to a token through APNs' HTTP/2 API.
    public func send(_ json: String, to token: String, topic: String) async throws -> APNsResult {
        let headers = NotificationHeaders(pushType: .alert, topic: topic)
        return await client.send(PushNotification(
            deviceToken: try DeviceToken(parsing: token), body: .payload(try Payload(decoding: json)), headers: headers
        ))
    }

    public func stop() async throws {
        try await client.shutdown()
        try await sandbox.shutdown()
    }
}
