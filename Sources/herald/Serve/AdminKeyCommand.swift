import ArgumentParser
import Foundation
import HeraldServer
import Logging

/// `herald serve admin-key`: a new admin key when the old one is lost or leaked, written to the
/// store directly (the server may be running).
struct AdminKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin-key",
        abstract: "Make a new admin key in the store (recovery); --rotate also revokes every other admin key.",
        discussion: """
            Reads the same store settings as herald serve (--database, --postgres, --config, HERALD_* \
            variables). The key is printed once. While the server runs, rotating without downtime is \
            POST /v1/admin/keys, then DELETE /v1/admin/keys/{old}.
            """
    )

    @Flag(help: "Revoke every other admin key.") var rotate = false
    /// `--database`, `--postgres` and `--config` are `herald serve`'s own.
    @ParentCommand var serve: ServeCommand

    func run() async throws {
        do {
            var settings = try serve.config.map(ServeSettings.file) ?? ServeSettings()
            settings = settings.overridden(by: try ServeSettings.environment(ProcessInfo.processInfo.environment))
            settings = settings.overridden(by: ServeSettings(database: serve.database, postgres: serve.postgres))
            if settings.postgres == nil, !FileManager.default.fileExists(atPath: settings.database ?? "herald.sqlite") {
                throw CommandError("no database at '\(settings.database ?? "herald.sqlite")'; give --database or --postgres (herald serve makes the first admin key itself)")
            }
            var logger = Logger(label: "herald.admin-key")
            logger.logLevel = .warning
            let (store, _) = try settings.openStore(logger: logger)
            let issued: (secret: String, revoked: Int)
            do {
                issued = try await HeraldServer.issueAdminKey(in: store, revokingOthers: rotate, now: Date())
            } catch {
                try? await store.close()
                throw CommandError("cannot write the key: \(error)")
            }
            try? await store.close()
            print("Admin key (shown once; keep it): \(issued.secret)")
            if rotate { print("Revoked \(issued.revoked) other admin key\(issued.revoked == 1 ? "" : "s").") }
        } catch let error as CommandError {
            throw error.exit(command: "serve admin-key")
        }
    }
}
