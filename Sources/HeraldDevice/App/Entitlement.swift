/// Entitlement keys the simulated device checks.
public enum Entitlement {
    /// `aps-environment`: `development` (sandbox tokens) or `production`.
    public static let apsEnvironment = "aps-environment"
    /// The Communication Notifications capability (seed 003).
    public static let communicationNotifications = "com.apple.developer.usernotifications.communication"
    // Interruption levels' entitlements: `InterruptionLevel.requiredEntitlement` in HeraldCore.
}
