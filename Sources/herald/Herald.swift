import ArgumentParser

/// `herald`: the command-line front of Herald's libraries. Commands parse and check their
/// arguments, then call a library; the work happens there.
@main
struct Herald: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald",
        abstract: "The Apple push-notification pipeline: send, lint payloads, mint provider tokens, emulate APNs.",
        version: "0.1.0",
        subcommands: [SendCommand.self, ProfileCommand.self, HistoryCommand.self, LintCommand.self, TokenCommand.self, SandboxCommand.self, BenchCommand.self, DeviceCommand.self, ServeCommand.self]
    )
}
