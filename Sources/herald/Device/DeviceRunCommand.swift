import ArgumentParser
import Foundation
import HeraldDevice
import HeraldShippedExtensions

/// `herald device run SCENARIO.yaml…`: plays scenarios and fails when an expectation does.
struct DeviceRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Play notification scenarios on a simulated iPhone; exit 1 when an expectation fails.",
        discussion: """
            A scenario installs apps (a folder with Info.plist and PlugIns/*.appex, or inline), then plays \
            steps: push, local, advance, state, lock, tap, expand, dismiss, register/receive (with a \
            herald sandbox) and expect. The README describes the format. Exit status: 0 when every \
            expectation holds, 1 when one fails, 64 for a scenario that cannot be read.
            """
    )

    @Argument(help: "Scenario files (YAML).")
    var scenarios: [String]

    @Flag(help: "Print JSON lines only: each event, then one {\"type\":\"result\",…} line per scenario with its failures.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print only the result line of each scenario.")
    var quiet = false

    func run() async throws {
        var failed = 0
        for path in scenarios {
            let scenario: Scenario
            do {
                scenario = try ScenarioParser.load(contentsOf: URL(fileURLWithPath: path))
            } catch {
                if json {
                    let line = ScenarioResultLine(type: "error", scenario: path, file: path, passed: false, failures: ["\(error)"])
                    print(String(decoding: try JSONEncoder().encode(line), as: UTF8.self))
                }
                throw CommandError("\(error)").exit(command: "device run")
            }
            let report = await ScenarioRunner(extensions: ShippedExtensions()).run(scenario)
            if json {
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .iso8601
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                for event in report.transcript {
                    print(String(decoding: try encoder.encode(event), as: UTF8.self))
                }
                let result = ScenarioResultLine(scenario: report.name, file: path, passed: report.passed, failures: report.failures)
                print(String(decoding: try encoder.encode(result), as: UTF8.self))
                if !report.passed { failed += 1 }
                continue
            } else if !quiet {
                print("▶ \(report.name)")
                let start = scenario.start
                for event in report.transcript {
                    print(String(format: "  +%6.1fs ", event.time.timeIntervalSince(start)) + event.description)
                }
                for render in report.renders { print(render) }
            }
            for failure in report.failures { print("  ✗ " + failure.replacingOccurrences(of: "\n", with: "\n    ")) }
            print(report.passed ? "✓ \(report.name): passed" : "✗ \(report.name): \(report.failures.count) failure\(report.failures.count == 1 ? "" : "s")")
            if !report.passed { failed += 1 }
        }
        if failed > 0 { throw ExitCode(1) }
    }
}

/// The last JSON line `herald device run --json` prints for a scenario.
struct ScenarioResultLine: Encodable {
    var type = "result"
    var scenario: String
    var file: String
    var passed: Bool
    var failures: [String]
}
