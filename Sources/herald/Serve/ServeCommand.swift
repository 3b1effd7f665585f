import ArgumentParser
import Foundation
import HeraldSandbox
import HeraldServer
import HeraldStore
import Logging

/// `herald serve`: the App Server. With no arguments: port 8080, `./herald.sqlite`, an admin key
/// printed on first start, and an in-process sandbox for apps without Apple credentials.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the App Server: device registry, sending, scheduling and delivery reports.",
        discussion: """
            Settings come from flags, then HERALD_* environment variables (HERALD_PORT, HERALD_DATABASE, \
            HERALD_POSTGRES_URL, HERALD_APNS_URL, …), then --config FILE (JSON with the same names as \
            the flags in camel case), then the defaults. Apps without Apple credentials send to a \
            HeraldSandbox in this process (or to --apns-url). Stops on SIGTERM or Ctrl-C after the \
            deliveries in flight finish; unfinished ones go back to the queue. History is kept \
            --retention-days (30) and each device's --device-history (100) newest deliveries.
            """,
        subcommands: [AdminKeyCommand.self, ImportCommand.self]
    )

    @Option(help: "Address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 or :: listens on every interface: put TLS in front or give --tls-cert).") var host: String?
    @Option(help: "Port to listen on (default 8080; 0 picks one).") var port: Int?
    @Option(help: "SQLite database file (default ./herald.sqlite).") var database: String?
    @Option(help: "PostgreSQL URL (postgres://user:password@host:port/db) instead of SQLite, to run several nodes.") var postgres: String?
    @Option(help: "Serve the in-process sandbox's admin API on this port (to watch deliveries, connect `herald device`).") var sandboxAdminPort: Int?
    @Option(help: "Send apps without credentials to this APNs server (e.g. a `herald sandbox`) instead of an in-process one.") var apnsURL: String?
    @Option(help: "PEM certificate to trust for --apns-url.") var apnsCA: String?
    @Flag(help: "No sandbox: apps without credentials fail with NoCredentials.") var noSandbox = false
    @Option(help: "The app folder the console's simulated iPhones run (default Scenarios/apps/QiShare, seed 000's demo app).") var phoneApp: String?
    @Option(help: "Batches delivered at once (default 4).") var workers: Int?
    @Option(help: "Deliveries per batch (default 1000).") var batchSize: Int?
    @Option(help: "Seconds a claimed batch stays leased; renewed every quarter of it while this node lives (default 10).") var lease: Double?
    @Option(help: "Seconds to keep trying an unreachable store at start-up before giving up (default 60).") var startupTimeout: Double?
    @Option(help: "Deliveries sent and not yet recorded at most, so at most sent twice after a crash (default APNs connections × streams, 400).") var sendWindow: Int?
    @Option(help: "This node's name in queue leases (default host-pid-random).") var nodeID: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical (default info).") var logLevel: String?
    @Option(help: "text or json (one JSON object per line, with request_id, app and client on request lines).") var logFormat: String?
    @Option(help: "Days delivery history is kept (default 30; 0 keeps it for ever).") var retentionDays: Int?
    @Option(help: "Finished deliveries kept per device, newest first (default 100; 0: no cap).") var deviceHistory: Int?
    @Option(help: "PEM certificate chain: serve the API over HTTPS (HTTP/2 through ALPN).") var tlsCert: String?
    @Option(help: "PEM private key of --tls-cert.") var tlsKey: String?
    @Option(help: "Bytes a bulk call (PUT /v1/devices) may send at most (default 16777216, 16 MiB; 1024 to 67108864).") var bulkBodyLimit: Int?
    @Option(help: "JSON file with settings.") var config: String?

    func run() async throws {
        do {
            try await serve()
        } catch let error as CommandError {
            throw error.exit(command: "serve")
        }
    }

    private func serve() async throws {
        var settings = try config.map(ServeSettings.file) ?? ServeSettings()
        settings = settings.overridden(by: try ServeSettings.environment(ProcessInfo.processInfo.environment))
        settings = settings.overridden(by: ServeSettings(
            host: host, port: port, database: database, postgres: postgres, sandboxAdminPort: sandboxAdminPort, apnsURL: apnsURL, apnsCA: apnsCA,
            noSandbox: noSandbox ? true : nil, workers: workers, batchSize: batchSize, lease: lease, nodeID: nodeID, logLevel: logLevel,
            startupTimeout: startupTimeout, sendWindow: sendWindow, retentionDays: retentionDays, deviceHistory: deviceHistory,
            tlsCert: tlsCert, tlsKey: tlsKey, logFormat: logFormat, bulkBodyLimit: bulkBodyLimit
        ))
        var logger: Logger
        switch settings.logFormat ?? "text" {
        case "text": logger = Logger(label: "herald.serve")
        case "json": logger = Logger(label: "herald.serve") { JSONLogHandler(label: $0) }
        case let other: throw CommandError("log format must be text or json; got '\(other)'")
        }
        let levelName = settings.logLevel ?? "info"
        guard let level = Logger.Level(rawValue: levelName) else {
            throw CommandError("log level '\(levelName)' is not one of trace, debug, info, notice, warning, error, critical")
        }
        logger.logLevel = level
        let port = settings.port ?? 8080
        guard (0...65535).contains(port) else { throw CommandError("port must be 0 to 65535; got \(port)") }
        if let workers = settings.workers, workers < 1 { throw CommandError("workers must be at least 1") }
        if let batchSize = settings.batchSize, batchSize < 1 { throw CommandError("batch size must be at least 1") }
        if let lease = settings.lease, lease < 1 { throw CommandError("lease must be at least 1 second") }
        if let timeout = settings.startupTimeout, timeout < 0 { throw CommandError("startup timeout must be 0 seconds or more") }
        if let window = settings.sendWindow, window < 1 { throw CommandError("send window must be at least 1 delivery") }
        if let days = settings.retentionDays, !(0...36_500).contains(days) { throw CommandError("retention days must be 0 (keep for ever) to 36500") }
        if let kept = settings.deviceHistory, kept < 0 { throw CommandError("device history must be 0 (no cap) or more") }
        if let limit = settings.bulkBodyLimit, !(1024...(64 << 20)).contains(limit) { throw CommandError("bulk body limit must be 1024 to 67108864 bytes (64 MiB); got \(limit)") }
        guard (settings.tlsCert == nil) == (settings.tlsKey == nil) else { throw CommandError("--tls-cert and --tls-key go together") }

        let sandbox: ServerConfiguration.SandboxRoute =
            if settings.noSandbox == true { .none } else if let url = settings.apnsURL { .external(url: url, certificate: settings.apnsCA) } else { .none }
        var settingUp = ServerConfiguration(
            host: settings.host ?? "127.0.0.1", port: port, nodeID: settings.nodeID ?? ServerConfiguration.defaultNodeID(),
            workers: settings.workers ?? 4, batchSize: settings.batchSize ?? 1000, lease: settings.lease ?? 10,
            startupTimeout: .milliseconds(Int((settings.startupTimeout ?? 60) * 1000)), sandbox: sandbox, logger: logger
        )
        settingUp.sendWindow = settings.sendWindow
        if let limit = settings.bulkBodyLimit { settingUp.bulkBodyLimit = limit }
        if let certificate = settings.tlsCert, let key = settings.tlsKey { settingUp.tls = .init(certificate: certificate, key: key) }
        let days = settings.retentionDays ?? 30
        let kept = settings.deviceHistory ?? 100
        settingUp.retention = RetentionPolicy(maximumAge: days == 0 ? nil : Double(days) * 86_400, perDevice: kept == 0 ? nil : kept)
        let configuration = settingUp
        if let files = configuration.tls {
            do { _ = try HeraldServer.tlsConfiguration(files) } catch { throw CommandError("\(error)") }
        } else if !["127.0.0.1", "::1", "localhost"].contains(configuration.host) {
            logger.warning("listening beyond this machine without TLS: API keys travel in the clear; give --tls-cert/--tls-key or put a TLS reverse proxy in front")
        }
        let (store, storeName) = try settings.openStore(logger: logger)
        // Apps without Apple credentials send to a HeraldSandbox in this process, unless told
        // otherwise; the server closes it when it closes.
        var inProcess: Sandbox?
        var shelf: PhoneShelf?
        var serving = configuration
        if settings.noSandbox != true && settings.apnsURL == nil {
            do {
                let started = try await Sandbox.startForAppServer(adminPort: settings.sandboxAdminPort, logger: logger)
                inProcess = started
                serving.sandbox = .external(url: started.url, certificate: started.certificatePath)
                serving.sandboxAdministration = InProcessSandbox(sandbox: started)
                shelf = PhoneShelf(sandbox: started, appFolder: URL(fileURLWithPath: phoneApp ?? "Scenarios/apps/QiShare"))
                serving.phones = shelf
            } catch {
                try? await store.close()
                throw CommandError("cannot start the in-process sandbox: \(error)")
            }
        }
        let server: HeraldServer
        let phones = shelf
        do {
            server = try await HeraldServer.start(store: store, configuration: serving, closing: inProcess.map { sandbox in [{ await phones?.close() }, { try await sandbox.shutdown() }] } ?? [])
        } catch {
            try? await inProcess?.shutdown()
            try? await store.close()
            throw CommandError("cannot start: \(error)")
        }
        do {
            try await serve(server, configuration: configuration, inProcess: inProcess, storeName: storeName, apnsURL: settings.apnsURL)
        } catch {
            // Whatever stopped it (the port taken, the store gone at start), what it opened is closed.
            try? await server.shutdown()
            throw error
        }
    }

    /// Prints the admin key (first start) and serves until stopped.
    private func serve(_ server: HeraldServer, configuration: ServerConfiguration, inProcess: Sandbox?, storeName: String, apnsURL: String?) async throws {
        if let secret = try await server.bootstrapAdminKey() {
            FileHandle.standardOutput.write(Data("Admin key (shown once; keep it): \(secret)\n".utf8))
        }
        let sandboxLine: String =
            if let sandbox = inProcess {
                "in-process sandbox on 127.0.0.1:\(sandbox.port)" + (sandbox.adminPort.map { ", its admin API on http://127.0.0.1:\($0)" } ?? "")
            } else { apnsURL.map { "apps without credentials send to \($0)" } ?? "no sandbox" }
        try await server.run { port in
            let scheme = configuration.tls == nil ? "http" : "https"
            FileHandle.standardOutput.write(Data("herald serve listening on \(scheme)://\(configuration.host):\(port) (store: \(storeName); \(sandboxLine))\n".utf8))
            let host = ["0.0.0.0", "::", "127.0.0.1", "::1"].contains(configuration.host) ? "localhost" : configuration.host
            FileHandle.standardOutput.write(Data("Console: \(scheme)://\(host):\(port)/ (sign in with the admin key)\n".utf8))
        }
    }
}
