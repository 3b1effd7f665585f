import ArgumentParser
import Dispatch
import Foundation
import HeraldCore
import HeraldSandbox
import Logging

/// `herald sandbox`: the APNs emulator's commands; `run` (the default) serves it.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run a faithful APNs emulator on this machine.",
        subcommands: [SandboxRunCommand.self, ClientCertCommand.self],
        defaultSubcommand: SandboxRunCommand.self
    )
}

/// `herald sandbox [run]`: serves the APNs emulator until Ctrl-C or SIGTERM.
struct SandboxRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Serve the APNs emulator until Ctrl-C (the default).",
        discussion: """
            Any APNs client can send to it as to Apple. Devices are registered through the admin API \
            (or accepted on first use with --auto-accept); with no --key-file any well-formed ES256 \
            provider token is accepted.
            """
    )

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "APNs port.")
    var port = 2197

    @Option(help: "Admin API port (HTTP/1.1 JSON); 0 picks a free one.")
    var adminPort = 2198

    @Flag(inversion: .prefixedNo, help: "Serve TLS with ALPN h2 (default), or cleartext HTTP/2 with prior knowledge.")
    var tls = true

    @Option(help: "PEM certificate to serve (default: one generated at start).")
    var cert: String?

    @Option(help: "PEM private key for --cert.")
    var key: String?

    @Option(help: "Where to write the generated certificate (default: a temporary file).")
    var certOut: String?

    @Flag(help: "Accept any device token for any topic, registering it on first use.")
    var autoAccept = false

    @Option(help: "A provider key (AuthKey_KEYID.p8) whose tokens are verified; repeatable.")
    var keyFile: [String] = []

    @Option(help: "The key id for --key-file (default: from the file name).")
    var keyID: String?

    @Option(help: "The team id of --key-file.")
    var teamID: String?

    @Flag(help: "Which APNs to play (development answers apns-unique-id).")
    var environment: EnvironmentFlag = .development

    @Option(help: "SETTINGS_MAX_CONCURRENT_STREAMS once a connection has a valid token.")
    var maxStreams = 1000

    @Option(help: "Pushes to one token allowed per second before 429 TooManyRequests (0: no limit).")
    var burstLimit = 300

    @Option(help: "Close connections idle this many seconds with GOAWAY IdleTimeout (0: never).")
    var idleTimeout = 600.0

    @Option(help: "Connections open at once; at the limit a new one replaces the oldest that has sent no request, or is closed.")
    var maxConnections = 1024

    @Option(help: "Seconds a new connection has for its TLS handshake and HTTP/2 preface and SETTINGS.")
    var handshakeTimeout = 10.0

    @Option(help: "Seconds open connections get to finish at shutdown before they are closed anyway.")
    var shutdownGrace = 5.0

    @Option(help: "Event loop threads (default: one per core).")
    var threads: Int?

    @Flag(help: "Do not log each request.")
    var quiet = false

    enum EnvironmentFlag: String, EnumerableFlag {
        case development, production
    }

    func validate() throws {
        if (cert == nil) != (key == nil) { throw ValidationError("--cert and --key go together") }
        if !keyFile.isEmpty && teamID == nil { throw ValidationError("--key-file needs --team-id") }
        if keyID != nil && keyFile.count > 1 { throw ValidationError("--key-id applies to one --key-file; name several keys AuthKey_KEYID.p8 instead") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        if maxStreams < 1 { throw ValidationError("--max-streams must be at least 1") }
        if burstLimit < 0 { throw ValidationError("--burst-limit must be 0 (no limit) or more") }
        if idleTimeout < 0 { throw ValidationError("--idle-timeout must be 0 (never) or more seconds") }
        if maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
        if handshakeTimeout <= 0 || shutdownGrace < 0 { throw ValidationError("--handshake-timeout must be above 0 seconds, --shutdown-grace 0 or more") }
        guard (0...65535).contains(port), (0...65535).contains(adminPort) else { throw ValidationError("ports are 0…65535") }
    }

    func run() async throws {
        var keys: [ProviderTokenVerifier.RegisteredKey] = []
        for path in keyFile {
            do {
                let key = try ProviderKey(contentsOfFile: path, keyID: keyID, teamID: teamID ?? "")
                keys.append(.init(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey))
            } catch {
                throw CommandError(error.description).exit(command: "sandbox")
            }
        }
        let transport: SandboxConfiguration.Transport =
            !tls ? .cleartext : cert.map { .tls(certificatePath: $0, keyPath: key!) } ?? .tlsSelfSigned(certificatePath: certOut)
        var logger = Logger(label: "herald.sandbox")
        logger.logLevel = .notice
        let configuration = SandboxConfiguration(
            host: host, port: port, transport: transport, adminPort: adminPort,
            environment: environment == .production ? .production : .development, autoAccept: autoAccept,
            maxConcurrentStreams: maxStreams, burstLimit: burstLimit == 0 ? Int.max : burstLimit,
            idleTimeout: idleTimeout > 0 ? idleTimeout : nil, maxConnections: maxConnections, handshakeTimeout: handshakeTimeout,
            shutdownGrace: shutdownGrace, providerKeys: keys, threads: threads, logger: logger
        )
        let sandbox: Sandbox
        do {
            var log: (@Sendable (SandboxRequestLog) -> Void)?
            if !quiet { log = { entry in say(entry.description) } }
            sandbox = try await Sandbox.start(configuration, onRequest: log)
        } catch {
            throw CommandError("\(error)").exit(command: "sandbox")
        }
        let scheme = tls ? "https" : "http"
        say("Herald APNs sandbox (\(configuration.environment)) listening on \(scheme)://\(host):\(sandbox.port)")
        if let certificatePath = sandbox.certificatePath { say("certificate to trust: \(certificatePath)") }
        if let adminPort = sandbox.adminPort { say("admin API: http://\(host):\(adminPort) (GET /devices, POST /devices, GET /counters …)") }
        say(keys.isEmpty ? "provider tokens: any well-formed ES256 JWT is accepted (no --key-file)" : "provider tokens: verified against \(keys.map(\.keyID).joined(separator: ", "))")
        say("devices: \(autoAccept ? "any token is accepted (--auto-accept)" : "register them with POST /devices, or start with --auto-accept")")
        let tlsFlags = tls ? "--cacert \(sandbox.certificatePath ?? "cert.pem")" : "--http2-prior-knowledge"
        say("""
            try it:
              curl --http2 \(tlsFlags) -H "apns-topic: com.example.app" -H "apns-push-type: alert" \\
                -H "authorization: bearer $(herald token --key AuthKey_KEYID.p8 --team-id TEAMID)" \\
                -d '{"aps":{"alert":"Hello"}}' \(scheme)://\(host):\(sandbox.port)/3/device/<token>
            """)
        if tls {
            say("certificate authentication: herald sandbox client-cert --bundle-id com.example.app, then curl --cert/--key instead of the authorization header")
        }
        await waitForTermination()
        say("shutting down: GOAWAY Shutdown to \(sandbox.openConnections) connection(s)")
        try await sandbox.shutdown()
    }
}

/// Suspends until SIGINT or SIGTERM. A second one, while the first shuts down, exits at once
/// (status 130), as a second Ctrl-C should.
func waitForTermination() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let waiter = SignalWaiter(continuation)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler { waiter.resume() }
            waiter.sources.append(source)
            source.resume()
        }
    }
}

/// Resumes a continuation once, from whichever signal comes first, then stops listening. The
/// signal sources' handlers keep it alive until then.
final class SignalWaiter: @unchecked Sendable {
    // Safe: after set-up, `resume` is the only user and runs on the main dispatch queue only.
    private var continuation: CheckedContinuation<Void, Never>?
    var sources: [any DispatchSourceSignal] = []

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = continuation
    }

    /// The first signal resumes; a later one exits at once.
    func resume() {
        guard let continuation else {
            FileHandle.standardError.write(Data("second signal: exiting without waiting\n".utf8))
            exit(130)
        }
        continuation.resume()
        self.continuation = nil
    }
}

/// Writes a line to standard output at once (unbuffered), so logs show up when piped.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
