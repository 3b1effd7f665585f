import Foundation
import HeraldStore

/// The backends the shared suite runs against: SQLite always, PostgreSQL when
/// `HERALD_TEST_POSTGRES_URL` is set (`.ci/run` starts one). Each test gets an empty store: a new
/// SQLite file, or a new PostgreSQL schema.
enum StoreBackend: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite
    case postgres

    static var available: [StoreBackend] {
        ProcessInfo.processInfo.environment["HERALD_TEST_POSTGRES_URL"] == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    var description: String { rawValue }

    /// A new, migrated, empty store.
    func makeStore() async throws -> any HeraldStore {
        let store: any HeraldStore
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-store-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            store = try SQLiteStore(path: folder.appendingPathComponent("herald.sqlite").path)
        case .postgres:
            let url = ProcessInfo.processInfo.environment["HERALD_TEST_POSTGRES_URL"]!
            let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            store = try PostgresStore(url: url, schema: schema)
        }
        try await store.migrate()
        return store
    }
}

/// Runs `body` with a new store of `backend` and closes it afterwards.
func withStore(_ backend: StoreBackend, _ body: (any HeraldStore) async throws -> Void) async throws {
    let store = try await backend.makeStore()
    do {
        try await body(store)
    } catch {
        try? await store.close()
        throw error
    }
    try await store.close()
}
