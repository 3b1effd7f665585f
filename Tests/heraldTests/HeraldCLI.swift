import Foundation

/// Runs the built `herald` executable, as a user would.
struct HeraldCLI {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable next to the test bundle (SwiftPM builds it because the tests depend on it).
    static let executable: URL = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("herald"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("herald"),
            repository.appendingPathComponent(".build/debug/herald"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }()

    static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        // Each run gets its own HERALD_HOME unless one is given, so tests never touch ~/.config.
        var merged = ProcessInfo.processInfo.environment
        merged["HERALD_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("herald-home-\(UUID().uuidString)").path
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
        process.currentDirectoryURL = repository
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self)
        )
    }
}
