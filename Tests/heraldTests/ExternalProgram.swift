import Foundation

/// Runs a program other than herald (curl, openssl, schemathesis) to its end, with its output
/// (standard output and error together); one that runs longer than `timeout` seconds is stopped.
enum ExternalProgram {
    static func run(_ program: String, _ arguments: [String], timeout: Double = 150) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
