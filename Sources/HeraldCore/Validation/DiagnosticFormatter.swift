/// Renders diagnostics the way compilers do, one per line with an indented fix:
///
/// ```text
/// payload.json:3:41: error: the payload is not valid JSON: trailing comma before '}' … [invalid-json]
/// payload.json: warning: aps.mutable-content: mutable-content is "1" (a string) … [flag-not-number]
///     fix: write "mutable-content": 1
/// ```
public struct DiagnosticFormatter: Sendable {
    /// The name shown before each line (a file name, or `<stdin>`).
    public var source: String

    public init(source: String) {
        self.source = source
    }

    public func format(_ diagnostic: Diagnostic) -> String {
        var line: String
        if let row = diagnostic.line, let column = diagnostic.column {
            line = "\(source):\(row):\(column): \(diagnostic.severity.rawValue): \(diagnostic.message)"
        } else {
            line = "\(source): \(diagnostic.severity.rawValue): \(diagnostic.location): \(diagnostic.message)"
        }
        line += " [\(diagnostic.code.rawValue)]"
        if let reason = diagnostic.reason { line += "\n    " + Self.answer(reason) }
        if let fix = diagnostic.fix { line += "\n    fix: \(fix)" }
        return line
    }

    /// Every diagnostic, then a summary line such as `1 error, 2 warnings`.
    public func format(_ diagnostics: [Diagnostic]) -> String {
        var lines = diagnostics.map(format)
        lines.append(Self.summary(diagnostics))
        return lines.joined(separator: "\n")
    }

    /// `no problems`, or counts by severity: `1 error, 2 warnings, 1 note`.
    public static func summary(_ diagnostics: [Diagnostic]) -> String {
        let counts = Severity.allCases.reversed().map { severity in
            (severity, diagnostics.filter { $0.severity == severity }.count)
        }
        let parts = counts.filter { $0.1 > 0 }.map { severity, count in
            let noun = severity == .info ? "note" : severity.rawValue
            return "\(count) \(noun)\(count == 1 ? "" : "s")"
        }
        return parts.isEmpty ? "no problems" : parts.joined(separator: ", ")
    }

    /// What APNs answers, saying where the reason comes from: Apple's table, or, for a request
    /// Apple documents no reason for, Herald's own name for it.
    static func answer(_ reason: APNsReason) -> String {
        let status = reason.status.map(String.init) ?? "an error"
        if APNsReason.known.contains(reason.canonical) { return "APNs answers: \(status) \(reason)" }
        return "APNs refuses it; Apple documents no answer for this, Herald's sandbox answers \(status) \(reason)"
    }
}
