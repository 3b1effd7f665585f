/// Entitlement keys the simulated device checks.
public enum Entitlement {
    /// `aps-environment`: `development` (sandbox tokens) or `production`.
    public static let apsEnvironment = "aps-environment"
    /// The Communication Notifications capability (seed 003).
    public static let communicationNotifications = "com.apple.developer.usernotifications.communication"
    /// Lets a service extension suppress a notification by delivering empty content (Apple
    /// grants it on request, for the service extension).
    public static let notificationFiltering = "com.apple.developer.usernotifications.filtering"
    // Interruption levels' entitlements: `InterruptionLevel.requiredEntitlement` in HeraldCore.
}
