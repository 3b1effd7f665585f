import Foundation
import PostgresNIO
import Testing
@testable import HeraldStore

/// PostgreSQL over TLS, as libpq users write it in the URL. Runs when HERALD_TEST_POSTGRES_CA
/// names the certificate of a TLS-enabled test server (`.ci/postgres ca`).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["HERALD_TEST_POSTGRES_CA"] != nil))
struct PostgresTLSTests {
    let base = ProcessInfo.processInfo.environment["HERALD_TEST_POSTGRES_URL"] ?? ""
    let authority = ProcessInfo.processInfo.environment["HERALD_TEST_POSTGRES_CA"] ?? ""

    /// Whether the store's connection is encrypted, according to the server.
    func isEncrypted(_ store: PostgresStore) async throws -> Bool {
        try await store.rows("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").first?.decode(Bool.self) ?? false
    }

    func url(_ query: String) -> String { base + (base.contains("?") ? "&" : "?") + query }

    @Test("sslmode=require and verify-full (with sslrootcert) connect encrypted; no sslmode stays plain")
    func encryptedConnections() async throws {
        for (query, encrypted) in [("sslmode=require", true), ("sslmode=verify-full&sslrootcert=\(authority)", true), ("sslmode=disable", false)] {
            let store = try PostgresStore(url: url(query))
            #expect(try await isEncrypted(store) == encrypted, "\(query)")
            try await store.close()
        }
    }

    @Test("verify-full refuses a server its roots do not vouch for; bad modes and files are refused with what is allowed")
    func refusals() async throws {
        // The system's roots do not know the test server's self-signed certificate: no query
        // goes through (postgres-nio keeps trying to connect; the server's store timeout is
        // what answers callers).
        let store = try PostgresStore(url: url("sslmode=verify-full"))
        let outcome = Task { try await store.rows("SELECT 1") }
        let timer = Task {
            try await Task.sleep(for: .seconds(5))
            outcome.cancel()
        }
        let connected = (try? await outcome.value) != nil
        timer.cancel()
        #expect(!connected, "connected without trusting the server's certificate")
        try await store.close()
        #expect(throws: StoreError.self) { try PostgresStore(url: url("sslmode=sometimes")) }
        #expect(throws: StoreError.self) { try PostgresStore(url: url("sslmode=verify-full&sslrootcert=/nonexistent.pem")) }
    }
}
