import Foundation

/// A live progress line on standard error for bulk sends to a terminal:
/// `[██████░░░░░░] 6,000/10,000  2,950/s  ETA 1s`. Redrawn at most ten times a second.
struct ProgressLine {
    let total: Int
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private(set) var isShown = false

    init(total: Int) {
        self.total = total
    }

    /// Whether a progress line suits this run: a terminal on standard error and several tokens.
    static func wanted(total: Int, json: Bool) -> Bool {
        !json && total > 1 && isatty(FileHandle.standardError.fileDescriptor) == 1
    }

    mutating func update(done: Int, elapsed: Duration, force: Bool = false) {
        let now = ContinuousClock.now
        guard force || now - lastDraw >= .milliseconds(100) else { return }
        lastDraw = now
        isShown = true
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + Self.text(done: done, total: total, elapsed: elapsed)).utf8))
    }

    /// Removes the line (before a result line is printed, or at the end).
    mutating func clear() {
        guard isShown else { return }
        isShown = false
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }

    static func text(done: Int, total: Int, elapsed: Duration) -> String {
        let width = 24
        let filled = total > 0 ? min(width, done * width / total) : width
        let seconds = elapsed.inSeconds
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let remaining = rate > 0 ? Int((Double(total - done) / rate).rounded(.up)) : nil
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        return "[\(bar)] \(done)/\(total)  \(Int(rate))/s  ETA \(remaining.map { "\($0)s" } ?? "?")"
    }
}
