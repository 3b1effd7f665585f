/// Checks an APNs request before it is sent: errors are what APNs rejects, warnings are what it
/// accepts but the device then silently mishandles, info is worth knowing.
///
/// The sandbox answers with the ``Diagnostic/reason`` of the first error; `herald lint`,
/// `herald send` and the App Server show every diagnostic.
///
/// ```swift
/// let diagnostics = PayloadLinter().lint(
///     payload: Array(#"{"aps":{"mutable-content":1,"sound":"default"}}"#.utf8),
///     headers: [("apns-push-type", "alert"), ("apns-topic", "com.example.app")]
/// )
/// // warning: aps.mutable-content: … the service extension will not run [mutable-content-without-alert]
/// ```
public struct PayloadLinter: Sendable {
    public var options: LintOptions

    public init(options: LintOptions = LintOptions()) {
        self.options = options
    }

    /// Lints payload bytes and, when given, the request's header fields (`nil` lints the payload
    /// alone, assuming the push type it calls for). Diagnostics come errors first, then in
    /// document order.
    public func lint(payload: some Collection<UInt8>, headers: [(name: String, value: String)]? = nil) -> [Diagnostic] {
        var run = LintRun(options: options, byteCount: payload.count)
        if let headers { run.checkHeaders(headers) }
        run.checkPayload(Array(payload))
        return run.diagnostics.enumerated()
            .sorted { ($0.element.severity, -$0.offset) > ($1.element.severity, -$1.offset) }
            .map(\.element)
    }

    /// Lints a notification as it will be sent.
    public func lint(_ notification: PushNotification) -> [Diagnostic] {
        lint(payload: notification.body.bytes, headers: notification.headers.fields())
    }
}

extension Array where Element == Diagnostic {
    /// True when any diagnostic is an error (APNs would reject the request).
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// The APNs reason of the first error that has one.
    public var firstReason: APNsReason? { first { $0.severity == .error && $0.reason != nil }?.reason }
}

/// The state of one lint pass: what the headers said and what has been found.
struct LintRun {
    let options: LintOptions
    let byteCount: Int
    var diagnostics: [Diagnostic] = []
    /// Whether headers were given at all.
    var headersGiven = false
    var pushType: PushType?
    var priority: Priority?
    var topic: String?

    init(options: LintOptions, byteCount: Int) {
        self.options = options
        self.byteCount = byteCount
    }

    /// The push type the payload is checked against: the header's, else the inferred one.
    var effectivePushType: PushType { pushType ?? inferredPushType ?? .alert }
    var inferredPushType: PushType?

    mutating func report(
        _ code: DiagnosticCode, _ severity: Severity, path: JSONPath? = nil, header: String? = nil,
        _ message: String, fix: String? = nil, reason: APNsReason? = nil
    ) {
        diagnostics.append(Diagnostic(
            code: code, severity: severity, path: path?.description, header: header,
            message: message, fix: fix, reason: reason
        ))
    }
}
