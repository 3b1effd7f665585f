import HeraldCore

/// What APNs does with a push before any device sees it: the same HeraldCore rules the sandbox
/// and `herald lint` apply to the payload and headers. A scenario's `push` step goes through
/// it, so a payload APNs refuses never reaches the simulated device.
struct APNsGate {
    let linter = PayloadLinter(options: LintOptions(authentication: .token))

    /// APNs's refusal of this push to `bundleID`, or `nil` when APNs accepts it.
    func refusal(of payload: Payload, headers: PushHeaders, bundleID: String) -> Diagnostic? {
        linter.lint(payload: payload.serialized, headers: Self.fields(headers, bundleID: bundleID)).first { $0.severity == .error }
    }

    /// The request headers a provider sends for this push.
    static func fields(_ headers: PushHeaders, bundleID: String) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [(HeaderName.topic, (headers.pushType ?? .alert).topic(forBundleID: bundleID))]
        if let pushType = headers.pushType { fields.append((HeaderName.pushType, pushType.rawValue)) }
        if let priority = headers.priority { fields.append((HeaderName.priority, String(priority))) }
        if let apnsID = headers.apnsID { fields.append((HeaderName.id, apnsID)) }
        if let collapseID = headers.collapseID { fields.append((HeaderName.collapseID, collapseID)) }
        return fields
    }
}
