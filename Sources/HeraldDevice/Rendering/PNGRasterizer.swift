import Foundation

/// Turns the SVG pictures into PNG with librsvg's `rsvg-convert` (Debian's `librsvg2-bin`),
/// at twice the size, as a Retina screen shows them.
public enum PNGRasterizer {
    /// Why a PNG could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Where `rsvg-convert` is, if it is installed.
    public static var converter: URL? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { URL(fileURLWithPath: String($0)).appendingPathComponent("rsvg-convert") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Writes `svg` as a PNG file at `path`.
    public static func write(svg: String, to path: String) throws(Failure) {
        guard let converter else {
            throw Failure(description: "rsvg-convert is not installed; install librsvg2-bin (apt-get install librsvg2-bin) to write PNG pictures")
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("herald-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = converter
        process.arguments = ["--zoom", "2", "--format", "png", "--output", path, input.path]
        let errors = Pipe()
        process.standardError = errors
        do {
            try svg.write(to: input, atomically: true, encoding: .utf8)
            try process.run()
        } catch {
            throw Failure(description: "rsvg-convert could not be run: \(error.localizedDescription)")
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "rsvg-convert failed (exit \(process.terminationStatus)): \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }
}
