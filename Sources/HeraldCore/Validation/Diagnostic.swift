/// One finding of ``PayloadLinter``: a stable code, a severity, where it is, what is wrong and how
/// to fix it.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Stable identifier of the rule, such as `payload-too-large`.
    public var code: DiagnosticCode
    public var severity: Severity
    /// Where in the payload, as a path such as `aps.alert.title` (`nil` for headers and for the
    /// document as a whole).
    public var path: String?
    /// The header concerned, such as `apns-priority`.
    public var header: String?
    /// 1-based line and column, for JSON syntax errors.
    public var line: Int?
    public var column: Int?
    /// What is wrong.
    public var message: String
    /// How to fix it.
    public var fix: String?
    /// What APNs answers to this request (errors only).
    public var reason: APNsReason?

    public init(
        code: DiagnosticCode, severity: Severity, path: String? = nil, header: String? = nil,
        line: Int? = nil, column: Int? = nil, message: String, fix: String? = nil, reason: APNsReason? = nil
    ) {
        self.code = code
        self.severity = severity
        self.path = path
        self.header = header
        self.line = line
        self.column = column
        self.message = message
        self.fix = fix
        self.reason = reason
    }

    /// Where the diagnostic points, as text: `aps.badge`, `header apns-priority`, `line 3, column 7`.
    public var location: String {
        if let line, let column { return "line \(line), column \(column)" }
        if let header { return "header \(header)" }
        if let path { return path.isEmpty ? "payload" : path }
        return "payload"
    }

    public var description: String {
        "\(severity.rawValue): \(location): \(message) [\(code.rawValue)]"
    }
}
