import Foundation
import Testing

/// `herald serve --tls-cert/--tls-key`: the API over HTTPS, HTTP/2 through ALPN and HTTP/1.1
/// for clients that do not offer it; bad files are refused at start with a clear message.
@Suite("herald serve over TLS")
struct ServeTLSTests {
    @Test("curl gets HTTP/2 over TLS, and HTTP/1.1 when it asks for it; a wrong key file is named")
    func servesHTTPS() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        let made = try ExternalProgram.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", certificate,
            "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ])
        #expect(made.status == 0, "\(made.output)")

        let process = try RunningHerald([
            "serve", "--port", "0", "--log-level", "warning", "--database", folder.appendingPathComponent("herald.sqlite").path, "--no-sandbox",
            "--tls-cert", certificate, "--tls-key", key,
        ])
        defer { process.stop() }
        let port = try await process.port(after: "herald serve listening on https://127.0.0.1:")
        let two = try ExternalProgram.run("/usr/bin/curl", ["-sS", "--http2", "--cacert", certificate, "-o", "/dev/null", "-w", "%{http_version} %{http_code}", "https://127.0.0.1:\(port)/health"])
        #expect(two.output == "2 200", "\(two.output)")
        let one = try ExternalProgram.run("/usr/bin/curl", ["-sS", "--http1.1", "--cacert", certificate, "-w", " %{http_version} %{http_code}", "https://127.0.0.1:\(port)/health"])
        #expect(one.output.hasSuffix(" 1.1 200") && one.output.contains("\"status\""), "\(one.output)")
        let plain = try ExternalProgram.run("/usr/bin/curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/health"])
        #expect(plain.output != "200", "plain HTTP must not be answered on the TLS port: \(plain.output)")

        let wrong = try HeraldCLI.run(["serve", "--port", "0", "--database", folder.appendingPathComponent("other.sqlite").path, "--no-sandbox", "--tls-cert", certificate, "--tls-key", certificate])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("--tls-key"), "\(wrong.stderr)")
        let otherKey = folder.appendingPathComponent("other.pem").path
        #expect(try ExternalProgram.run("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", otherKey]).status == 0)
        let mismatched = try HeraldCLI.run(["serve", "--port", "0", "--database", folder.appendingPathComponent("third.sqlite").path, "--no-sandbox", "--tls-cert", certificate, "--tls-key", otherKey])
        #expect(mismatched.status == 64)
        #expect(mismatched.stderr.contains("does not go with --tls-cert"), "\(mismatched.stderr)")
        let alone = try HeraldCLI.run(["serve", "--tls-cert", certificate])
        #expect(alone.status == 64)
        #expect(alone.stderr.contains("--tls-cert and --tls-key go together"))
    }
}
