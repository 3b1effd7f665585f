import Foundation
import HeraldCore
import Testing

/// The README's `herald serve` walk-through, run as written: the test starts `herald serve` (on
/// free ports instead of 8080/8081), then runs the README's own shell block with bash and curl.
@Suite struct ServeWalkthroughTests {
    @Test func theReadmeWalkthroughDeliversTheChineseVariant() async throws {
        let block = try Self.readmeBlock()
        let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let serveLine = try #require(lines.first { $0.hasPrefix("herald serve") }, "the block starts the server")
        #expect(serveLine.contains("--sandbox-admin-port 8081"))
        let keyIndex = try #require(lines.firstIndex { $0.hasPrefix("KEY=") }, "the block sets KEY from the app's answer")
        #expect(lines.contains { $0.hasPrefix("ADMIN=") })

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-walkthrough-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ServeProcess.start([
            "--database", folder.appendingPathComponent("herald.sqlite").path, "--sandbox-admin-port", "0",
        ])
        defer { server.process.stop() }
        let admin = try #require(server.adminKey)
        let adminPort = try await server.process.port(after: "its admin API on http://127.0.0.1:")

        // The README's lines, on this run's ports, with the two values the reader copies by hand.
        func script(_ part: ArraySlice<String>) -> String {
            part.filter { !$0.hasPrefix("herald serve") }
                .map { line in
                    line.hasPrefix("ADMIN=") ? "ADMIN=\(admin)" : line
                        .replacingOccurrences(of: "localhost:8080", with: "127.0.0.1:\(server.port)")
                        .replacingOccurrences(of: "localhost:8081", with: "127.0.0.1:\(adminPort)")
                }
                .joined(separator: "\n")
        }
        let created = try runTool("/bin/bash", ["-euc", script(lines[..<keyIndex])])
        #expect(created.status == 0, "\(created.stderr)")
        let app = try JSONValue(parsing: created.stdout)
        let key = try #require(app["apiKey"]?["secret"]?.stringValue, "\(created.stdout)")
        #expect(key.hasPrefix("hk_app_"))

        let rest = try runTool("/bin/bash", ["-euc", "KEY=\(key)\n" + script(lines[(keyIndex + 1)...])])
        #expect(rest.status == 0, "\(rest.stderr)")
        // Three answers: the device, the send's report with the result, what the sandbox received.
        let answers = try Self.jsonDocuments(rest.stdout)
        try #require(answers.count == 3, "\(rest.stdout)")
        #expect(answers[0]["state"]?.stringValue == "active")
        #expect(answers[1]["report"]?["sent"]?.intValue == 1, "\(answers[1])")
        let received = try #require(answers[2].arrayValue)
        #expect(received.count == 1)
        let payload = try JSONValue(parsing: try #require(received.first?["payload"]?.stringValue))
        #expect(payload["aps"]?["alert"]?["title"]?.stringValue == "你好")
        #expect(payload["aps"]?["alert"]?["body"]?.stringValue == "世界")
        #expect(await server.process.terminate() == 0)
    }

    /// The first ```sh block after the `herald serve` heading.
    static func readmeBlock() throws -> String {
        let readme = try String(contentsOf: HeraldCLI.repository.appendingPathComponent("README.md"), encoding: .utf8)
        guard let heading = readme.range(of: "### `herald serve`"),
            let open = readme.range(of: "```sh\n", range: heading.upperBound..<readme.endIndex),
            let close = readme.range(of: "\n```", range: open.upperBound..<readme.endIndex)
        else { throw RunningHerald.Failure("README.md has no ```sh block under ### `herald serve`") }
        return String(readme[open.upperBound..<close.lowerBound])
    }

    /// Splits concatenated JSON documents (curl prints one answer after another).
    static func jsonDocuments(_ text: String) throws -> [JSONValue] {
        var documents: [JSONValue] = []
        var depth = 0
        var inString = false
        var escaped = false
        var start: String.Index?
        for index in text.indices {
            let character = text[index]
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{", "[":
                if depth == 0 { start = index }
                depth += 1
            case "}", "]":
                depth -= 1
                if depth == 0, let begin = start { documents.append(try JSONValue(parsing: String(text[begin...index]))) }
            default: break
            }
        }
        return documents
    }
}
