import Foundation
import HeraldStore
import Logging

/// `herald serve`'s settings from a JSON file or environment variables; flags override both,
/// and the environment overrides the file.
struct ServeSettings: Codable, Equatable {
    var host: String?
    var port: Int?
    var database: String?
    var postgres: String?
    var sandboxAdminPort: Int?
    var apnsURL: String?
    var apnsCA: String?
    var noSandbox: Bool?
    var workers: Int?
    var batchSize: Int?
    var lease: Double?
    var nodeID: String?
    var logLevel: String?
    var startupTimeout: Double?
    var sendWindow: Int?
    var retentionDays: Int?
    var deviceHistory: Int?
    var tlsCert: String?
    var tlsKey: String?
    var logFormat: String?
    var bulkBodyLimit: Int?

    /// The variables read, each named after its setting.
    static var environmentNames: [(name: String, key: WritableKeyPath<ServeSettings, String?>)] { [
        ("HERALD_HOST", \.host), ("HERALD_DATABASE", \.database), ("HERALD_POSTGRES_URL", \.postgres), ("HERALD_APNS_URL", \.apnsURL),
        ("HERALD_APNS_CA", \.apnsCA), ("HERALD_NODE_ID", \.nodeID), ("HERALD_LOG_LEVEL", \.logLevel),
        ("HERALD_TLS_CERT", \.tlsCert), ("HERALD_TLS_KEY", \.tlsKey), ("HERALD_LOG_FORMAT", \.logFormat),
    ] }
    static var environmentNumbers: [(name: String, key: WritableKeyPath<ServeSettings, Int?>)] { [
        ("HERALD_PORT", \.port), ("HERALD_SANDBOX_ADMIN_PORT", \.sandboxAdminPort), ("HERALD_WORKERS", \.workers), ("HERALD_BATCH_SIZE", \.batchSize),
        ("HERALD_RETENTION_DAYS", \.retentionDays), ("HERALD_DEVICE_HISTORY", \.deviceHistory),
        ("HERALD_BULK_BODY_LIMIT", \.bulkBodyLimit),
    ] }

    static func file(_ path: String) throws -> ServeSettings {
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandError("cannot read the config file '\(path)'") }
        do {
            return try JSONDecoder().decode(ServeSettings.self, from: data)
        } catch DecodingError.typeMismatch(_, let context), DecodingError.dataCorrupted(let context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw CommandError("config file '\(path)': \(field.isEmpty ? "not a JSON object" : "'\(field)' has the wrong type") (keys: host, port, database, postgres, sandboxAdminPort, apnsURL, apnsCA, noSandbox, workers, batchSize, lease, nodeID, logLevel, startupTimeout, sendWindow, retentionDays, deviceHistory, tlsCert, tlsKey, logFormat, bulkBodyLimit)")
        }
    }

    static func environment(_ variables: [String: String]) throws -> ServeSettings {
        var settings = ServeSettings()
        for (name, key) in environmentNames { if let value = variables[name], !value.isEmpty { settings[keyPath: key] = value } }
        for (name, key) in environmentNumbers {
            guard let value = variables[name], !value.isEmpty else { continue }
            guard let number = Int(value) else { throw CommandError("\(name) must be a whole number; got '\(value)'") }
            settings[keyPath: key] = number
        }
        return settings
    }

    /// These settings with `other`'s values where it has them.
    func overridden(by other: ServeSettings) -> ServeSettings {
        ServeSettings(
            host: other.host ?? host, port: other.port ?? port, database: other.database ?? database, postgres: other.postgres ?? postgres,
            sandboxAdminPort: other.sandboxAdminPort ?? sandboxAdminPort, apnsURL: other.apnsURL ?? apnsURL, apnsCA: other.apnsCA ?? apnsCA,
            noSandbox: other.noSandbox ?? noSandbox, workers: other.workers ?? workers, batchSize: other.batchSize ?? batchSize,
            lease: other.lease ?? lease, nodeID: other.nodeID ?? nodeID, logLevel: other.logLevel ?? logLevel,
            startupTimeout: other.startupTimeout ?? startupTimeout, sendWindow: other.sendWindow ?? sendWindow,
            retentionDays: other.retentionDays ?? retentionDays, deviceHistory: other.deviceHistory ?? deviceHistory,
            tlsCert: other.tlsCert ?? tlsCert, tlsKey: other.tlsKey ?? tlsKey, logFormat: other.logFormat ?? logFormat,
            bulkBodyLimit: other.bulkBodyLimit ?? bulkBodyLimit
        )
    }

    /// Opens the store these settings name: PostgreSQL, or the SQLite file (default
    /// `./herald.sqlite`) with its key file. Returns the store and how to name it in messages.
    func openStore(logger: Logger) throws -> (store: any HeraldStore, name: String) {
        do {
            let environment = ProcessInfo.processInfo.environment
            let previous = try environment["HERALD_SECRET_KEY_PREVIOUS"].map { [try SecretSealer.parseKey($0)] } ?? []
            let givenKey = try environment["HERALD_SECRET_KEY"].flatMap { $0.isEmpty ? nil : $0 }.map { try SecretSealer(key: SecretSealer.parseKey($0), previous: previous) }
            if let url = postgres {
                if givenKey == nil {
                    logger.warning("Apple credentials are kept unencrypted in PostgreSQL: set HERALD_SECRET_KEY (openssl rand -base64 32) to seal them")
                }
                return (try PostgresStore(url: url, sealer: givenKey, logger: logger), "PostgreSQL")
            }
            // The embedded default: a key file beside the database (made on first start,
            // readable by its owner only) seals the credentials in it.
            let path = database ?? "herald.sqlite"
            return (try SQLiteStore(path: path, sealer: try givenKey ?? SecretSealer.keyFile(at: path + ".key", previous: previous)), path)
        } catch {
            throw CommandError("cannot open the store: \(error)")
        }
    }
}
