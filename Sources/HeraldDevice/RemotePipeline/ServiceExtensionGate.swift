import HeraldCore

/// Decides whether the notification service extension runs for a remote notification, and
/// says why not when it does not (DEVICE-RULES: it runs only with `mutable-content: 1` and an
/// alert with a title, subtitle or body, and not when alerts are disabled).
public enum ServiceExtensionGate {
    public enum Decision: Equatable, Sendable {
        case runs
        case skipped(reason: String)
    }

    /// - Parameters:
    ///   - aps: the payload's `aps` dictionary.
    ///   - alertsAllowed: the user allows this app's alerts.
    ///   - hasExtension: the app ships a notification service extension.
    public static func decide(_ aps: APS, alertsAllowed: Bool, hasExtension: Bool) -> Decision {
        guard hasExtension else { return .skipped(reason: "the app has no notification service extension") }
        guard aps.mutableContentAsDevicesRead else { return .skipped(reason: "mutable-content is not 1") }
        guard aps.runsServiceExtension else {
            return .skipped(reason: "mutable-content is set but the alert has no title, subtitle or body")
        }
        guard alertsAllowed else { return .skipped(reason: "alerts are disabled for this app") }
        return .runs
    }
}
