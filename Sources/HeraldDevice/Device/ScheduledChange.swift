/// Something the user does at a set time on the device's clock (``SimulatedDevice/schedule(_:after:)``).
public enum ScheduledChange: Sendable, Equatable {
    /// The app moves to this state (opened, sent to the background, quit).
    case state(AppRunState, app: String)
    /// The device is locked or unlocked.
    case lock(Bool)
}
