import Synchronization

/// Wakes idle workers when there is new work, so a send does not wait for the next poll.
final class WakeSignal: Sendable {
    private let generation = Atomic<Int>(0)

    /// Tells waiting workers there is work.
    func signal() {
        generation.add(1, ordering: .relaxed)
    }

    /// Returns after `timeout`, or soon (within 5 ms) after a signal.
    func wait(timeout: Duration) async {
        let start = generation.load(ordering: .relaxed)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, generation.load(ordering: .relaxed) == start, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
