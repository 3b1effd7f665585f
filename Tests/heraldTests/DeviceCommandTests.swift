import Foundation
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
