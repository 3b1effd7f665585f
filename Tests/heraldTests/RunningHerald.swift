import Foundation
import Synchronization

/// A long-running `herald` process (such as `herald sandbox`) whose output is read line by line
/// while it runs.
final class RunningHerald: Sendable {
    private let process: Process
    private let output = Mutex<String>("")

    /// Starts `herald` with `arguments`; with a `launcher` (such as `["/usr/bin/prlimit",
    /// "--nofile=40"]`), that program runs herald instead.
    init(_ arguments: [String], environment: [String: String] = [:], launcher: [String] = []) throws {
        let process = Process()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launcher.dropFirst() + [HeraldCLI.executable.path] + arguments
        } else {
            process.executableURL = HeraldCLI.executable
            process.arguments = arguments
        }
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

    /// The process id (of herald itself: a launcher execs it).
    var pid: Int32 { process.processIdentifier }

    /// Whether it still runs.
    var isRunning: Bool { process.isRunning }

    /// Resident memory now, in bytes (Linux: VmRSS from /proc).
    var residentBytes: Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }

    /// CPU time used so far (user + system), in seconds (Linux: /proc/PID/stat).
    var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime 14 and stime 15 (1-based, name is 2).
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Sends `signal` without waiting.
    func send(signal: Int32) {
        if process.isRunning { Foundation.kill(process.processIdentifier, signal) }
    }

    /// Waits up to `timeout` for the process to exit; its status, or nil if it still runs.
    func exitStatus(within timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return process.isRunning ? nil : process.terminationStatus
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
