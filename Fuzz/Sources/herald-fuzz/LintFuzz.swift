import HeraldCore

/// The linter on any payload, alone and with header fields taken from the input's first line
/// (`name: value` pairs separated by `;`).
enum LintFuzz {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let linter = PayloadLinter()
        _ = linter.lint(payload: bytes)
        guard let newline = bytes.firstIndex(of: 10) else { return }
        let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<newline]), as: UTF8.self)
        let headers = line.split(separator: ";").compactMap { field -> (name: String, value: String)? in
            let parts = field.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            return (String(parts[0]), String(parts[1].drop { $0 == " " }))
        }
        _ = linter.lint(payload: UnsafeBufferPointer(rebasing: bytes[(newline + 1)...]), headers: headers)
    }
}
