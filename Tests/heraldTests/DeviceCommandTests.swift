import Foundation
import HeraldTestSupport
import Testing

@Suite struct DeviceCommandTests {
    @Test func runPlaysAScenarioAndExitsZeroWhenItPasses() throws {
        let output = try HeraldCLI.run(["device", "run", "Scenarios/seed000-local.yaml"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("✓ seed 000 — local notification, then cancel by id: passed"))
        #expect(output.stdout.contains("local-fired [LocalNotiReqIdentifer]"))
        #expect(output.stdout.contains("╭"), "the render step prints the banner")
    }

    @Test func runExitsOneWhenAnExpectationFailsAndSaysWhich() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("failing-\(UUID().uuidString).yaml")
        try """
        name: failing
        app: {bundle-id: com.example.app, state: background}
        steps:
          - push: {"aps":{"badge":2}}
          - expect: {event: presented}
        """.write(to: file, atomically: true, encoding: .utf8)
        let output = try HeraldCLI.run(["device", "run", file.path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("line 5: expected presented"))
        #expect(output.stdout.contains("✗ failing: 1 failure"))
    }

    @Test func runRefusesAnUnreadableScenarioWith64() throws {
        let output = try HeraldCLI.run(["device", "run", "Scenarios/no-such.yaml"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("no-such.yaml: cannot be read"))
    }

    /// `--json` prints JSON lines only, failures included, ending with one result line.
    @Test func jsonOutputIsOnlyJSONLines() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("json-\(UUID().uuidString).yaml")
        try """
        name: json
        app: {bundle-id: com.example.app, state: background}
        steps:
          - push: {"aps":{"badge":2}}
          - expect: {event: presented}
        """.write(to: file, atomically: true, encoding: .utf8)
        let output = try HeraldCLI.run(["device", "run", "--json", file.path])
        #expect(output.status == 1)
        let lines = output.stdout.split(separator: "\n")
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not a JSON object: \(line)")
        }
        let last = try #require(lines.last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(last["type"] as? String == "result")
        #expect(last["passed"] as? Bool == false)
        #expect((last["failures"] as? [String])?.first?.contains("line 5: expected presented") == true)
    }

    /// Waiting for a slow download costs no CPU: a 4 s wait used to keep a core ~80 % busy
    /// (URLSession's polling on Linux); now the child's CPU time stays far below the wait.
    @Test func waitingForASlowDownloadUsesLittleCPU() async throws {
        let media = try await MediaServer.start()
        defer { Task { await media.stop() } }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("slow-\(UUID().uuidString).yaml")
        try """
        app: {bundle-id: com.example.app, state: background, service-extension: [download-media]}
        steps:
          - push: {"aps":{"alert":"hi","mutable-content":1},"media":{"type":"image","url":"\(media.baseURL)/slow/4/photo"}}
          - expect: {event: attachment-added}
        """.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        // bash's `times` prints the CPU time of the children it waited for on its second line.
        process.arguments = ["-c", "\"$0\" device run -q \"$1\" >/dev/null || exit 9; times", HeraldCLI.executable.path, file.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let children = try #require(text.split(separator: "\n").last)
        // "0m0.120s 0m0.030s": user and system seconds.
        let seconds = children.split(separator: " ").map { part -> Double in
            let minutes = Double(part.prefix { $0 != "m" }) ?? 0
            return minutes * 60 + (Double(part.drop { $0 != "m" }.dropFirst().dropLast()) ?? 0)
        }.reduce(0, +)
        #expect(seconds < 1.5, "herald used \(seconds) s of CPU while waiting 4 s for a download: \(children)")
    }

    /// A misspelt key in a negative check must not pass silently: exit 64 with the line and the allowed keys.
    @Test func runRefusesAMisspeltExpectationKeyWith64() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("typo-\(UUID().uuidString).yaml")
        try """
        app: {bundle-id: com.example.app, state: background}
        steps:
          - push: {"aps":{"alert":{"title":"Secret","body":"b"}}}
          - expect-not: {event: presented, titel: Secret}
        """.write(to: file, atomically: true, encoding: .utf8)
        let output = try HeraldCLI.run(["device", "run", file.path])
        #expect(output.status == 64, "\(output.stdout)\(output.stderr)")
        #expect(output.stderr.contains(":4:"), "\(output.stderr)")
        #expect(output.stderr.contains("unknown key \"titel\""), "\(output.stderr)")
        #expect(output.stderr.contains("title"), "\(output.stderr)")
    }

    @Test func explainSaysWhyTheServiceExtensionDoesNotRun() throws {
        let output = try HeraldCLI.run(["device", "explain", "-"], stdin: #"{"aps":{"mutable-content":1,"badge":1,"sound":"default"}}"#)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("service extension not run: mutable-content is set but the alert has no title, subtitle or body"))
        #expect(output.stdout.contains("Nothing is shown."))
    }

    @Test func explainWithAnAppFolderShowsTheBanner() throws {
        let output = try HeraldCLI.run(["device", "explain", "-", "--app", "Scenarios/apps/QiShare", "--state", "foreground"],
                                       stdin: #"{"aps":{"alert":{"title-loc-key":"TITLELOCKEY","title-loc-args":["a","b"],"body":"Hi"},"category":"QiShareCategoryIdentifier"}}"#)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("will-present"))
        #expect(output.stdout.contains("content extension NotificationContent shows category"))
        #expect(output.stdout.contains("Title with a and b"))
    }
}
