import HeraldCore

/// How much a notification may interrupt (Apple's `UNNotificationInterruptionLevel`).
public enum UNNotificationInterruptionLevel: UInt, Sendable {
    /// Added to the list without lighting the screen or playing a sound.
    case passive = 0
    case active = 1
    /// Breaks through Focus; needs the Time Sensitive Notifications capability.
    case timeSensitive = 2
    /// Plays a sound even when muted; needs Apple's critical-alerts entitlement.
    case critical = 3

    init(device level: InterruptionLevel) {
        switch level {
        case .passive: self = .passive
        case .timeSensitive: self = .timeSensitive
        case .critical: self = .critical
        default: self = .active
        }
    }

    var deviceLevel: InterruptionLevel {
        switch self {
        case .passive: .passive
        case .active: .active
        case .timeSensitive: .timeSensitive
        case .critical: .critical
        }
    }
}
