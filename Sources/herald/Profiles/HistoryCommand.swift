import ArgumentParser
import Foundation

/// `herald history`: the sends made from this account, and sending one again.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List past herald send runs, or send one again.",
        discussion: "Kept in $HERALD_HOME/history.jsonl (default ~/.config/herald), readable by you only.",
        subcommands: [List.self, Replay.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List past sends, newest last.")

        @Option(help: "How many of the newest to show.")
        var last = 20

        func run() throws {
            let entries = HistoryStore(home: HeraldHome()).load()
            if entries.isEmpty { say("no sends yet") }
            for (index, entry) in entries.enumerated().suffix(max(0, last)) { say(entry.summary(number: index + 1)) }
        }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send a past run again (same target, credentials, headers, payload and tokens).")

        @Argument(help: "The run's number in herald history.")
        var number: Int

        @Option(help: "Password of a .p12 certificate (never kept in the history) [env: HERALD_CERT_PASSWORD].")
        var certPassword: String?

        func run() async throws {
            let entries = HistoryStore(home: HeraldHome()).load()
            guard entries.indices.contains(number - 1) else {
                throw CommandError("there is no run \(number); herald history lists \(entries.count)").exit(command: "history replay")
            }
            let entry = entries[number - 1]
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-replay-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let payloadFile = folder.appendingPathComponent("payload.json").path
            let tokensFile = folder.appendingPathComponent("tokens.txt").path
            try Data(entry.payload.utf8).write(to: URL(fileURLWithPath: payloadFile))
            try Data(entry.tokens.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: tokensFile))
            var arguments = entry.arguments(payloadFile: payloadFile, tokensFile: tokensFile)
            if let certPassword { arguments += ["--cert-password", certPassword] }
            let command = try SendCommand.parse(Array(arguments.dropFirst()))
            try await command.run()
        }
    }
}
