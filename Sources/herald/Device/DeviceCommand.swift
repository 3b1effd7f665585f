import ArgumentParser

/// `herald device`: the simulated iPhone.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "A simulated iPhone: play notification scenarios, or explain what a device does with a payload.",
        subcommands: [DeviceRunCommand.self, DeviceExplainCommand.self]
    )
}
