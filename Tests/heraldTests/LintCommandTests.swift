import Foundation
import HeraldCore
import Testing

@Suite struct LintCommandTests {
    @Test func warningsOnlyExitZero() throws {
        let output = try HeraldCLI.run(["lint", "Examples/Payloads/seed-002-image.json"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("Examples/Payloads/seed-002-image.json: warning: aps.mutable-content: "))
        #expect(output.stdout.contains("[flag-not-number]"))
        #expect(output.stdout.hasSuffix("4 warnings\n"))
    }

    @Test func errorsExitOneWithLineAndColumn() throws {
        let output = try HeraldCLI.run(["lint", "Examples/Payloads/seed-000-media.json"])
        #expect(output.status == 1)
        #expect(output.stdout.hasPrefix("Examples/Payloads/seed-000-media.json:1:170: error: the payload is not valid JSON"))
    }

    @Test func readsStandardInputAndChecksHeaders() throws {
        let output = try HeraldCLI.run(["lint", "-", "--push-type", "background", "--priority", "10"], stdin: #"{"aps":{"content-available":1}}"#)
        #expect(output.status == 1)
        #expect(output.stdout.contains("<stdin>: error: header apns-priority: background pushes must have priority 5"))
        #expect(output.stdout.contains("APNs answers: 400 BadPriority"))
        // No apns-priority at all: APNs accepts it (field reports), so a warning, not an error.
        let unset = try HeraldCLI.run(["lint", "-", "--push-type", "background", "--topic", "com.x", "--auth", "token"], stdin: #"{"aps":{"content-available":1}}"#)
        #expect(unset.stdout.contains("warning: header apns-priority: background push without apns-priority"), "\(unset.stdout)")
        #expect(!unset.stdout.contains("error"), "\(unset.stdout)")
        let fixed = try HeraldCLI.run(["lint", "-", "--push-type", "background", "--priority", "5", "--topic", "com.x", "--auth", "token"], stdin: #"{"aps":{"content-available":1}}"#)
        #expect(fixed.status == 0)
        #expect(fixed.stdout == "no problems\n")
    }

    @Test func jsonOutputForScripts() throws {
        let output = try HeraldCLI.run(["lint", "Examples/Payloads/seed-003-communication.json", "--json"])
        #expect(output.status == 1)
        let report = try JSONValue(parsing: output.stdout)
        #expect(report["errors"] == 1)
        #expect(report["diagnostics"]?.arrayValue?.first?["code"] == "payload-wrapped")
        #expect(report["diagnostics"]?.arrayValue?.first?["path"] == "payload")
    }

    @Test func listsEveryRule() throws {
        let output = try HeraldCLI.run(["lint", "--rules"])
        #expect(output.status == 0)
        for rule in DiagnosticCode.catalog { #expect(output.stdout.contains(rule.code.rawValue)) }
    }

    @Test func aPipeIsReadLikeAFile() throws {
        // /dev/stdin is a pipe here, as in `echo … | herald lint /dev/stdin` or `herald lint <(…)`.
        let piped = try HeraldCLI.run(["lint", "/dev/stdin"], stdin: #"{"aps":{"alert":"from a pipe"}}"#)
        #expect(piped.status == 0 && piped.stdout == "no problems\n", "\(piped.stdout)\(piped.stderr)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-lint-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let directory = try HeraldCLI.run(["lint", folder.path])
        #expect(directory.status == 64 && directory.stderr.contains("it is a directory; give a file, or - for standard input"), "\(directory.stderr)")
    }

    @Test func badArgumentsSayWhatIsWrong() throws {
        let missing = try HeraldCLI.run(["lint", "no-such-file.json"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("herald lint: no file at no-such-file.json"))
        let noFile = try HeraldCLI.run(["lint"])
        #expect(noFile.status == 64)
        #expect(noFile.stderr.contains("give a payload file, or - to read standard input"))
        let badAuth = try HeraldCLI.run(["lint", "-", "--auth", "password"], stdin: "{}")
        #expect(badAuth.status == 64)
        #expect(badAuth.stderr.contains("password"))
    }
}
