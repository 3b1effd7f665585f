import Foundation
import Synchronization

/// The current time, injected wherever Herald needs it so tests can move time by hand.
public protocol WallClock: Sendable {
    var now: Date { get }
}

/// The system's clock.
public struct SystemClock: WallClock {
    public init() {}

    public var now: Date { Date() }
}

/// A clock that moves only when told to; for tests and simulations.
public final class ManualClock: WallClock {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        self.current = Mutex(start)
    }

    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward by `interval` seconds.
    public func advance(by interval: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(interval) }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
