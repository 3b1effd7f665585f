import Foundation
import Synchronization

/// A long-running `herald` process (such as `herald sandbox`) whose output is read line by line
/// while it runs.
final class RunningHerald: Sendable {
    private let process: Process
    private let output = Mutex<String>("")

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = HeraldCLI.executable
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        self.process = process
        pipe.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            if !data.isEmpty { self.output.withLock { $0 += String(decoding: data, as: UTF8.self) } }
        }
        try process.run()
    }

    /// Everything printed so far.
    var printed: String { output.withLock { $0 } }

    /// Waits (up to `timeout` seconds) for a printed line containing `marker` and returns it.
    func line(containing marker: String, timeout: TimeInterval = 30) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            // Complete lines only: the last one may still be being written.
            if let line = printed.split(separator: "\n").dropLast(printed.hasSuffix("\n") ? 0 : 1).first(where: { $0.contains(marker) }) {
                return String(line)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure("no line with '\(marker)' within \(timeout) s; printed:\n\(printed)")
    }

    /// Kills the process at once (SIGKILL: no chance to finish or clean up), as a crash would.
    func kill() async {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
    }

    /// Sends SIGKILL without waiting: for `defer`, so a failed test leaves no process behind.
    func stop() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// Sends SIGTERM and waits for the exit status.
    func terminate() async -> Int32 {
        if process.isRunning { process.terminate() }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        return process.terminationStatus
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// Runs any program to completion (curl, here) and returns its status and output.
func runTool(_ path: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}
