import Crypto
import Foundation
import NIOPosix
import HeraldAPNs
import HeraldCore
import HeraldStore
import Synchronization

/// One APNs client per app and environment: Apple with the app's credential, or the sandbox
/// route for an environment without one. Clients are made on first use and replaced when the
/// app's credentials change.
final class APNsRoutes: Sendable {
    /// Where the sandbox is, once known.
    struct SandboxEndpoint: Sendable {
        var endpoint: APNsClientConfiguration.Endpoint
        var transport: APNsClientConfiguration.Transport
    }

    private struct Entry {
        var credential: AppCredential?
        var client: APNsClient
    }

    private let clients = Mutex<[String: Entry]>([:])
    /// Clients replaced after a credential change, closing (each in a task of its own, so that
    /// the request that replaced it does not wait; ``shutdown()`` waits for them).
    private let retiring = Mutex<[ObjectIdentifier: Task<Void, Never>]>([:])
    /// One provider token per signing key, shared by every client that signs with it: APNs
    /// answers TooManyProviderTokenUpdates when a team's token changes within 20 minutes, so
    /// two apps of one team (one .p8 key serves them all) must not each make their own.
    private let tokenSources = Mutex<[String: ProviderTokenSource]>([:])
    private let sandbox: SandboxEndpoint?
    private let connections: Int
    private let streams: Int
    /// The key the server signs sandbox requests with (the sandbox accepts any team's key).
    private let sandboxKey: ProviderKey

    init(sandbox: SandboxEndpoint?, connections: Int, streams: Int) throws {
        self.sandbox = sandbox
        self.connections = connections
        self.streams = streams
        sandboxKey = try ProviderKey(privateKey: P256.Signing.PrivateKey(), keyID: Self.randomID(), teamID: Self.randomID())
    }

    private static func randomID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<10).map { _ in alphabet.randomElement()! })
    }

    /// Where a route's notifications go.
    enum Route {
        case client(APNsClient)
        /// Nowhere: the text says why (for the log; reports say `NoCredentials`).
        case unavailable(String)
    }

    /// The route for `app` in `environment`. The sandbox takes an app's notifications only when
    /// the app has no Apple credentials at all: an app with a credential for one environment
    /// and not the other is misconfigured, and its notifications for the other must not look
    /// delivered.
    func route(for app: StoredApp, environment: APNsEnvironment) -> Route {
        if app.credential(for: environment) == nil {
            if !app.credentials.isEmpty {
                return .unavailable("the app has Apple credentials, but none for \(environment); add them, or register the device in the other environment")
            }
            if sandbox == nil { return .unavailable("the app has no Apple credentials and this server has no sandbox (--no-sandbox)") }
        }
        do {
            guard let client = try client(for: app, environment: environment) else { return .unavailable("no route to APNs") }
            return .client(client)
        } catch {
            return .unavailable("the app's \(environment) credentials cannot be used: \(error)")
        }
    }

    /// Where `app`'s notifications for `environment` go, for people: `apple` (with its
    /// credential), `sandbox` or `none`.
    func destination(for app: StoredApp, environment: APNsEnvironment) -> String {
        if app.credential(for: environment) != nil { return "apple" }
        return app.credentials.isEmpty && sandbox != nil ? "sandbox" : "none"
    }

    /// The client for `app` in `environment`, or `nil` when it has no credential and there is
    /// no sandbox.
    func client(for app: StoredApp, environment: APNsEnvironment) throws -> APNsClient? {
        let key = "\(app.id)/\(environment)"
        let credential = app.credential(for: environment)
        var retired: APNsClient?
        defer { if let retired { retire(retired) } }
        return try clients.withLock { clients in
            if let entry = clients[key] {
                if entry.credential == credential { return entry.client }
                retired = entry.client
                clients[key] = nil
            }
            guard let configuration = try configuration(app: app, environment: environment, credential: credential) else { return nil }
            // Every app's clients share the process's event loops (as the API and the store do).
            let client = try APNsClient(configuration: configuration, eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
            clients[key] = Entry(credential: credential, client: client)
            return client
        }
    }

    private func configuration(app: StoredApp, environment: APNsEnvironment, credential: AppCredential?) throws -> APNsClientConfiguration? {
        let authentication: APNsClientConfiguration.Authentication
        let endpoint: APNsClientConfiguration.Endpoint
        var transport = APNsClientConfiguration.Transport.tls()
        switch credential?.secret {
        case .token(let keyID, let pem)?:
            let key = try ProviderKey(pem: pem, keyID: keyID, teamID: app.teamID ?? "")
            authentication = .token(tokenSource(for: key, pem: pem))
            endpoint = .apple(environment)
        case .pkcs12(let base64, let password)?:
            // In memory only: the certificate's key is never written to a file.
            guard let bytes = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
                throw APNsClientError.credentials("the app's \(environment) .p12 is not valid base64")
            }
            authentication = .pkcs12Data(Array(bytes), password: password)
            endpoint = .apple(environment)
        case nil:
            guard let sandbox else { return nil }
            authentication = .token(tokenSource(for: sandboxKey, pem: ""))
            endpoint = sandbox.endpoint
            transport = sandbox.transport
        }
        return APNsClientConfiguration(
            endpoint: endpoint, transport: transport, authentication: authentication, connections: connections, streamsPerConnection: streams
        )
    }

    /// The shared token source for a key (by team, key id and the key itself).
    private func tokenSource(for key: ProviderKey, pem: String) -> ProviderTokenSource {
        let name = "\(key.teamID)/\(key.keyID)/\(pem)"
        return tokenSources.withLock { sources in
            if let source = sources[name] { return source }
            let source = ProviderTokenSource(key: key)
            sources[name] = source
            return source
        }
    }

    /// Closes a replaced client; it leaves ``retiring`` once closed.
    private func retire(_ client: APNsClient) {
        let id = ObjectIdentifier(client)
        retiring.withLock { retiring in
            retiring[id] = Task {
                try? await client.shutdown()
                _ = self.retiring.withLock { $0.removeValue(forKey: id) }
            }
        }
    }

    /// Closes every client, and waits for replaced ones still closing.
    func shutdown() async {
        let all = clients.withLock { clients in
            defer { clients = [:] }
            return clients.values.map(\.client)
        }
        for client in all { try? await client.shutdown() }
        for closing in retiring.withLock({ Array($0.values) }) { await closing.value }
    }
}
