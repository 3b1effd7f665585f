import ArgumentParser

/// `herald bench`: benchmarks as commands. `herald bench …` with no subcommand is
/// `herald bench client …`.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Herald: the APNs client (default) or the App Server.",
        subcommands: [ClientBenchCommand.self, ServeBenchCommand.self],
        defaultSubcommand: ClientBenchCommand.self
    )
}
