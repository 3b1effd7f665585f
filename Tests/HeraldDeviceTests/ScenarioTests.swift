import Foundation
import HeraldDevice
import HeraldShippedExtensions
import HeraldTestSupport
import Testing

/// Plays every scenario in Scenarios/ (the seeds' walk-throughs and the device rules) against
/// a local media server.
@Suite struct ScenarioTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios")

    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()

    @Test(arguments: files)
    func scenarioPasses(_ file: String) async throws {
        let server = try await MediaServer.start()
        defer { Task { await server.stop() } }
        let scenario = try ScenarioParser.load(contentsOf: Self.folder.appendingPathComponent(file), variables: ["MEDIA_URL": server.baseURL])
        let report = await ScenarioRunner(extensions: ShippedExtensions()).run(scenario)
        #expect(report.failures.isEmpty, "\(file):\n\(report.failures.joined(separator: "\n"))\n\(report.transcript.map(\.description).joined(separator: "\n"))")
        #expect(!report.transcript.isEmpty)
    }

    @Test func everySeedHasAScenario() {
        for seed in ["seed000-local", "seed000-remote-foreground", "seed000-remote-background", "seed000-remote-not-running",
                     "seed000-service-extension", "seed002-image-download", "seed003-communication", "seed004-content-extension"] {
            #expect(Self.files.contains("\(seed).yaml"), "missing \(seed).yaml")
        }
    }

    /// A failing expectation makes the report fail, with the line and what was seen.
    @Test func aFailedExpectationIsReported() async throws {
        let text = """
        app: {bundle-id: com.example.app, state: background}
        steps:
          - push: {"aps":{"alert":"hi"}}
          - expect: {event: presented, options: [banner]}
        """
        let scenario = try ScenarioParser(file: "inline.yaml", baseDirectory: URL(fileURLWithPath: "/tmp")).parse(text)
        let report = await ScenarioRunner(extensions: ShippedExtensions()).run(scenario)
        #expect(report.failures.count == 1)
        #expect(report.failures.first?.hasPrefix("line 4: expected presented options=banner") == true)
        #expect(report.failures.first?.contains("presented") == true)
    }

    @Test func badScenariosSayWhatIsWrongAndWhere() throws {
        let cases: [(String, String)] = [
            ("app: {bundle-id: a}\nsteps:\n  - shake: 1", "bad.yaml:3:"),
            ("app: {bundle-id: a}\nsteps:\n  - advance: soon", "advance must be seconds"),
            ("app: {bundle-id: a, state: asleep}", "state must be foreground, background or not-running"),
            ("steps: []", "installs no app"),
            ("app: {bundle-id: a}\nsteps:\n  - expect: {event: exploded}", "unknown event \"exploded\""),
            ("app: {bundle-id: a, service-extension: [teleport]}", "unknown service-extension step \"teleport\""),
            ("app: {bundle-id: a}\nsteps:\n  - push: {\"aps\":{\"alert\":\"${NOT_SET_ANYWHERE}\"}}", "bad.yaml:3: ${NOT_SET_ANYWHERE} is not set"),
            ("app: {folder: no/such/folder}", "does not exist"),
            ("app: {bundle-id: a}\nsteps:\n  - expect-not: {event: presented, titel: Secret}", "bad.yaml:3: unknown key \"titel\" in an expectation of presented; allowed: event, notification, app, message, count, options, title"),
            ("app: {bundle-id: a}\nsteps:\n  - expect: {event: did-receive, actoin: A}", "unknown key \"actoin\""),
            ("app: {bundle-id: a}\nsteps:\n  - advance: 5\n    apns-id: x", "unknown key \"apns-id\" in the advance step"),
            ("app: {bundle-id: a}\nsteps:\n  - local: {id: r, body: x, after: .inf}", "after must be from 0 to ten years"),
            ("app: {bundle-id: a}\nsteps:\n  - advance: 1e300", "advance must be from 0 to ten years"),
            ("app: {bundle-id: a}\nsteps:\n  - advance: -5", "advance must be from 0 to ten years"),
            ("app: {bundle-id: a}\nsteps:\n  - later: {after: -5, state: foreground}", "after must be from 0"),
            ("app: {bundle-id: a}\nsteps:\n  - receive: {count: -1}", "count must be from 1"),
            ("app: {bundle-id: a}\nsteps:\n  - set-badge: -1", "set-badge must be from 0"),
            ("app: {bundle-id: a}\nsteps:\n  - languages: []", "languages needs at least one language"),
            ("app: {bundle-id: a}\nsteps:\n  - local: {id: r, after: 5, at: {hour: 9}}", "one trigger"),
            ("app: {bundle-id: a}\nsteps:\n  - later: {after: 5, state: foreground, app: typo}", "app \"typo\" is not installed"),
            ("app: {bundle-id: a}\nsteps:\n  - expect-not: {event: presented, app: typo}", "app \"typo\" is not installed"),
            ("app: {bundle-id: a}\nsteps:\n  - expect: {event: presented, lock-screen: no}", "lock-screen cannot be \"no\""),
            ("app: {bundle-id: a}\nsteps:\n  - expect: {event: presented, options: [banner, lsit]}", "options cannot be \"lsit\""),
            ("app: {bundle-id: a, service-extension: [{never-answer: false}]}", "never-answer takes no argument"),
            ("app: {bundle-id: a, service-extension: [{download-media: [img]}]}", "download-media takes a value or a mapping"),
            ("app: {bundle-id: a, content-extensions: {C: {size-ratio: 0.2}}}", "size-ratio belongs to an inline Info.plist"),
            ("app: {bundle-id: a, content-extensions: {C: {answers: {x: dismiss}}}}", "the app has no content extension \"C\""),
            ("app: {bundle-id: a}\nsteps:\n  - push: {\"aps\":{}}\n    local: {id: x}", "unknown key \"local\" in the push step"),
        ]
        for (text, expected) in cases {
            do {
                _ = try ScenarioParser(file: "bad.yaml", baseDirectory: URL(fileURLWithPath: "/tmp")).parse(text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.contains(expected), "\(error.description) does not say \(expected)")
            }
        }
    }
}
