/// Entitlement keys the simulated device checks.
public enum Entitlement {
    /// `aps-environment`: `development` (sandbox tokens) or `production`.
    public static let apsEnvironment = "aps-environment"
    /// The Communication Notifications capability (seed 003).
    public static let communicationNotifications = "com.apple.developer.usernotifications.communication"
    /// Needed for `interruption-level: time-sensitive`.
    public static let timeSensitive = "com.apple.developer.usernotifications.time-sensitive"
    /// Needed (and approved by Apple) for `interruption-level: critical` and critical sounds.
    public static let criticalAlerts = "com.apple.developer.usernotifications.critical-alerts"
}
