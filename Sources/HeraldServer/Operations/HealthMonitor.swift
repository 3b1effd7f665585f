import Foundation
import HeraldCore
import HeraldStore
import Logging
import ServiceLifecycle
import Synchronization

/// Checks the store every second (a read and a small write, so a full disk shows), with a deadline, and keeps what it saw in memory, so
/// `/health`, `/ready` and `/metrics` answer at once whatever state the store is in.
final class HealthMonitor: Service, Sendable {
    /// The last check's findings.
    struct Snapshot: Sendable {
        /// The queue when the store last answered.
        var queue: QueueSummary?
        /// When the store last answered.
        var answeredAt: Date?
        /// Why the last check failed (nil when it answered).
        var storeError: String?
        /// Since when checks fail.
        var failingSince: Date?
    }

    private let store: any HeraldStore
    private let clock: any WallClock
    private let logger: Logger
    private let node: String
    let timeout: Duration
    private let state = Mutex(Snapshot())
    /// A check still waiting for the store (one at a time).
    private let checking = Atomic<Bool>(false)

    init(store: any HeraldStore, clock: any WallClock, logger: Logger, node: String, timeout: Duration) {
        self.store = store
        self.node = node
        self.clock = clock
        self.logger = logger
        self.timeout = timeout
    }

    var snapshot: Snapshot { state.withLock { $0 } }

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await check()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
        }
    }

    /// A request or a write failed because the store is unavailable: reported until a check
    /// (which writes too) goes through.
    func noteFailure(_ why: String) {
        fail(why)
    }

    /// One check: the queue summary and a small write, within ``timeout``. A check the store does not answer in
    /// time counts as a failure; it is not started again until the store answers it.
    func check() async {
        guard checking.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            fail("the store has not answered for more than \(timeout)")
            return
        }
        let done = Atomic<Bool>(false)
        let store = store
        let clock = clock
        let task = Task {
            defer { self.checking.store(false, ordering: .releasing) }
            do {
                let summary = try await store.queueSummary(now: clock.now)
                try await store.checkWrite(node: self.node, now: clock.now)
                done.store(true, ordering: .releasing)
                self.succeed(summary)
            } catch {
                done.store(true, ordering: .releasing)
                self.fail("\(error)")
            }
        }
        let deadline = ContinuousClock.now + timeout
        while !done.load(ordering: .acquiring) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        if !done.load(ordering: .acquiring) {
            fail("the store did not answer within \(timeout)")
        }
        _ = task
    }

    private func succeed(_ summary: QueueSummary) {
        let wasFailing = state.withLock { state in
            defer { state = Snapshot(queue: summary, answeredAt: clock.now, storeError: nil, failingSince: nil) }
            return state.failingSince != nil
        }
        if wasFailing { logger.notice("the store answers again") }
    }

    private func fail(_ why: String) {
        let now = clock.now
        let first = state.withLock { state in
            defer {
                state.storeError = why
                if state.failingSince == nil { state.failingSince = now }
            }
            return state.failingSince == nil
        }
        if first { logger.warning("the store does not answer", metadata: ["error": "\(why)"]) }
    }
}
