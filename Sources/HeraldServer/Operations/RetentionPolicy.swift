import Foundation

/// How long the App Server keeps delivery history, and how much per device.
///
/// Defaults: notifications and their deliveries are kept 30 days, and each device's 100 most
/// recent deliveries (older ones go even within the 30 days). Queued deliveries are never
/// deleted. Deleting happens in the background in small batches, each its own short
/// transaction, so sending is not held up.
public struct RetentionPolicy: Sendable, Hashable {
    /// History older than this goes (nil: kept for ever).
    public var maximumAge: TimeInterval?
    /// Finished deliveries kept per device, newest first (nil: no cap).
    public var perDevice: Int?
    /// Rows deleted per transaction.
    public var batch: Int
    /// Devices looked at per transaction of the per-device sweep.
    public var devicesPerSweepStep: Int
    /// How often old history is looked for.
    public var interval: Duration
    /// How often every device's history is trimmed to ``perDevice``.
    public var deviceSweepInterval: Duration
    /// Pause between two batches, so other writers get the store.
    public var pause: Duration

    public init(
        maximumAge: TimeInterval? = 30 * 86_400, perDevice: Int? = 100, batch: Int = 1_000, devicesPerSweepStep: Int = 500,
        interval: Duration = .seconds(60), deviceSweepInterval: Duration = .seconds(3_600), pause: Duration = .milliseconds(20)
    ) {
        self.maximumAge = maximumAge
        self.perDevice = perDevice
        self.batch = batch
        self.devicesPerSweepStep = devicesPerSweepStep
        self.interval = interval
        self.deviceSweepInterval = deviceSweepInterval
        self.pause = pause
    }

    /// Nothing is ever deleted.
    public static let keepEverything = RetentionPolicy(maximumAge: nil, perDevice: nil)
}
