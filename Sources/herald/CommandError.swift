import ArgumentParser
import Foundation

/// An error a command reports to the user as one clear sentence.
struct CommandError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }

    /// Prints `herald <command>: <sentence>` on standard error and returns the exit status for
    /// bad usage (64), so scripts can tell it from a failed check (1).
    func exit(command: String, status: Int32 = 64) -> ExitCode {
        FileHandle.standardError.write(Data("herald \(command): \(description)\n".utf8))
        return ExitCode(status)
    }
}
