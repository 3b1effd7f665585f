import Synchronization

/// Bounds what a node has sent to APNs and not yet recorded: a permit per notification, taken
/// before it is sent and given back once its outcome is in the store. A crash, or a store outage
/// after which another holder claims the rows, can then re-send at most this many: the window
/// (the APNs connections × streams per connection).
final class SendWindow: Sendable {
    let size: Int
    private let available: Atomic<Int>
    /// Wakes those waiting for permits when some come back.
    private let returned = WakeSignal()

    init(size: Int) {
        self.size = max(1, size)
        available = Atomic(self.size)
    }

    /// Takes `count` permits (at most ``size``), waiting for them; false when the task is
    /// cancelled or `stop()` says to give up first.
    func acquire(_ count: Int, stop: () -> Bool = { false }) async -> Bool {
        let wanted = min(count, size)
        while true {
            var current = available.load(ordering: .relaxed)
            while current >= wanted {
                let (exchanged, found) = available.compareExchange(expected: current, desired: current - wanted, ordering: .acquiring)
                if exchanged { return true }
                current = found
            }
            if Task.isCancelled || stop() { return false }
            await returned.wait(timeout: .milliseconds(5))
        }
    }

    /// Gives permits back.
    func release(_ count: Int) {
        guard count > 0 else { return }
        available.add(count, ordering: .releasing)
        returned.signal()
    }

    /// Permits taken now.
    var taken: Int { size - available.load(ordering: .relaxed) }
}
