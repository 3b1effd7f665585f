import GRDB
import PostgresNIO

/// Why a store could not be opened or used.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database URL is not one the store understands.
    case badURL(String, expected: String)
    /// A schema name with characters other than letters, digits and `_`.
    case badSchema(String)
    /// The database (a SQLite file, or a PostgreSQL schema) was set up by a newer Herald: its
    /// layout version, the newest this one knows, and (PostgreSQL) the oldest layout whose code
    /// works with it.
    case newerLayout(Int, known: Int, oldestReader: Int? = nil)
    /// A migration could not take the locks it needs: each wait ran out, every try.
    case migrationLocked(tries: Int, timeout: String, blockers: String)
    /// Another process delivers from this SQLite file (it holds the lock on the file at the path).
    case deliveryLockHeld(String)
    /// The secret key is missing, malformed, or not the one the secrets were sealed with.
    case secretKey(String)
    /// The SQLite file at the path has more than one name (hard links).
    case hardLinked(String, links: Int)
    /// The SQLite file at the path could not be opened or locked for delivery.
    case deliveryLock(String, reason: String)

    /// The URL without the password between `:` and `@`.
    static func redacted(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@"), let scheme = url.range(of: "://"), scheme.upperBound < at,
            let colon = url[scheme.upperBound..<at].firstIndex(of: ":")
        else { return url }
        return url[..<url.index(after: colon)] + "***" + url[at...]
    }

    public var description: String {
        switch self {
        case .badURL(let url, let expected): "'\(Self.redacted(url))' is not a database URL; expected \(expected)"
        case .badSchema(let name): "'\(name)' is not a schema name; use letters, digits and _"
        case .newerLayout(let found, let known, let oldestReader):
            "the database has layout version \(found), written by a newer Herald; this one reads up to version \(known)"
                + (oldestReader.map { ": run a version that knows layout \($0) or later" } ?? ": run that version or a newer one")
        case .migrationLocked(let tries, let timeout, let blockers):
            "the migration waited \(timeout) for a lock \(tries) times and gave up: other sessions hold locks on the tables it changes (\(blockers)); "
                + "end them (a long transaction, a VACUUM FULL, a node of another version) and start again"
        case .deliveryLockHeld(let path):
            "another process is delivering from this SQLite database (it holds the lock on \(path)); one process serves a SQLite file, use PostgreSQL (--postgres) to run several"
        case .deliveryLock(let path, let reason): "could not lock \(path): \(reason)"
        case .secretKey(let message): message
        case .hardLinked(let path, let links):
            "the SQLite database \(path) has \(links) hard links; SQLite keeps its write-ahead log by name, so a database must have one name (remove the other links, or use a symbolic link)"
        }
    }
}

extension StoreError {
    /// What went wrong, for a log: PostgreSQL's own words (its SQLSTATE and message) where
    /// postgres-nio's description says only that something did; never the statement's values
    /// nor the server's detail, which may quote them (tokens, secrets).
    public static func describe(_ error: any Error) -> String {
        let error = cause(of: error)
        guard let error = error as? PSQLError else { return "\(error)" }
        guard let server = error.serverInfo else { return "PostgreSQL: \(error.code)" }
        return "PostgreSQL \(server[.sqlState] ?? "?"): \(server[.message] ?? "no message")"
    }

    /// Whether `error` says the store cannot be reached or cannot write now (connection refused
    /// or lost, the server shutting down, a full disk, a locked or read-only file), as opposed
    /// to a bad request: a caller may try again later, and the API answers 503.
    public static func isUnavailable(_ error: any Error) -> Bool {
        let error = cause(of: error)
        if let error = error as? PSQLError {
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed, .sslUnsupported,
                .failedToAddSSLHandler:
                return true
            case .server:
                // Connection exceptions (08), insufficient resources such as a full disk (53),
                // operator intervention such as a shutdown (57).
                let state = error.serverInfo?[.sqlState] ?? ""
                return ["08", "53", "57"].contains(String(state.prefix(2)))
            default:
                return false
            }
        }
        if let error = error as? DatabaseError {
            return [.SQLITE_FULL, .SQLITE_IOERR, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_CANTOPEN, .SQLITE_READONLY].contains(error.resultCode.primaryResultCode)
        }
        return false
    }

    /// The error a transaction's work, `BEGIN` or `COMMIT` failed with, for an error from
    /// postgres-nio's `withTransaction` (which wraps it); any other error as it is.
    public static func cause(of error: any Error) -> any Error {
        guard let transaction = error as? PostgresTransactionError else { return error }
        return transaction.closureError ?? transaction.commitError ?? transaction.beginError ?? error
    }

    /// The SQLSTATE PostgreSQL answered with, if it did (through a transaction's wrapping too).
    static func sqlState(of error: any Error) -> String? {
        (cause(of: error) as? PSQLError)?.serverInfo?[.sqlState]
    }
}
