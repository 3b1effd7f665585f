import Foundation
import Testing

/// `herald profile` and `herald history`, against a `herald sandbox` process.
@Suite(.serialized) struct ProfileAndHistoryTests {
    @Test func aProfileSendsAndTheHistoryReplays() async throws {
        let target = try await SendCommandTests().start()
        let home = target.folder.appendingPathComponent("home").path
        let environment = ["HERALD_HOME": home]

        let added = try HeraldCLI.run([
            "profile", "add", "local", "--url", "https://127.0.0.1:\(target.port)", "--cacert", target.certificate,
            "--key", target.keyPath, "--team-id", "DEF123GHIJ", "--bundle-id", "com.example.app",
        ], environment: environment)
        #expect(added.status == 0, "\(added.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: home + "/profiles.json")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let listed = try HeraldCLI.run(["profile", "list"], environment: environment)
        #expect(listed.stdout.contains("local") && listed.stdout.contains("bundle com.example.app"), "\(listed.stdout)")

        let token = String(repeating: "ef", count: 32)
        let sent = try HeraldCLI.run(["send", "--profile", "local", "--title", "From", "--body", "a profile", "--token", token], environment: environment)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try target.received(token).contains("a profile"))

        let history = try HeraldCLI.run(["history"], environment: environment)
        #expect(history.stdout.hasPrefix("1  ") && history.stdout.contains("1 accepted, 0 failed"), "\(history.stdout)")
        let replayed = try HeraldCLI.run(["history", "replay", "1"], environment: environment)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let received = try target.received(token)
        #expect(received.components(separatedBy: "a profile").count - 1 == 2, "\(received)")

        let unknown = try HeraldCLI.run(["send", "--profile", "nope", "--title", "x", "--body", "y"], environment: environment)
        #expect(unknown.status == 64 && unknown.stderr.contains("no profile named 'nope'; there are local"), "\(unknown.stderr)")
        let removed = try HeraldCLI.run(["profile", "remove", "local"], environment: environment)
        let afterRemoval = try HeraldCLI.run(["profile", "list"], environment: environment)
        #expect(removed.status == 0 && afterRemoval.stdout.contains("no profiles"))
        _ = await target.sandbox.terminate()
    }

    @Test func passwordsAreNeverListed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-prof-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let p12 = folder.appendingPathComponent("push.p12").path
        try Data("not really".utf8).write(to: URL(fileURLWithPath: p12))
        let environment = ["HERALD_HOME": folder.appendingPathComponent("home").path]
        let added = try HeraldCLI.run(["profile", "add", "certs", "--production", "--cert", p12, "--cert-password", "hunter2"], environment: environment)
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try HeraldCLI.run(["profile", "list"], environment: environment)
        #expect(listed.stdout.contains("(password set)") && !listed.stdout.contains("hunter2") && !added.stdout.contains("hunter2"))
    }
}
