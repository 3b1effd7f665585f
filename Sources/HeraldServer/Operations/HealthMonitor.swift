import Foundation
import HeraldCore
import HeraldStore
import Logging
import ServiceLifecycle
import Synchronization

/// Checks the store every second with a small write (so a full disk shows as well as an
/// unreachable server) and reads the queue's size every ``queueInterval``, each with a deadline,
/// and keeps what it saw in memory: `/health`, `/ready` and `/metrics` answer at once whatever
/// state the store is in. A slow queue count (millions queued) does not make the store look down.
final class HealthMonitor: Service, Sendable {
    /// The last checks' findings.
    struct Snapshot: Sendable {
        /// The queue when it was last counted.
        var queue: QueueSummary?
        /// When the store last took the check's write.
        var answeredAt: Date?
        /// Why the last check failed (nil when it went through).
        var storeError: String?
        /// Since when checks fail.
        var failingSince: Date?
    }

    static let queueInterval = Duration.seconds(10)

    private let store: any HeraldStore
    private let clock: any WallClock
    private let logger: Logger
    private let node: String
    let timeout: Duration
    private let state = Mutex(Snapshot())
    /// Checks still waiting for the store (one of each at a time).
    private let checking = Atomic<Bool>(false)
    private let counting = Atomic<Bool>(false)

    init(store: any HeraldStore, clock: any WallClock, logger: Logger, node: String, timeout: Duration) {
        self.store = store
        self.clock = clock
        self.logger = logger
        self.node = node
        self.timeout = timeout
    }

    var snapshot: Snapshot { state.withLock { $0 } }

    func run() async throws {
        // Queue counts run beside the checks, as child tasks: they end with the monitor.
        await withDiscardingTaskGroup { group in
            var lastCount: ContinuousClock.Instant?
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                if lastCount.map({ ContinuousClock.now - $0 >= Self.queueInterval }) ?? true,
                    counting.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
                {
                    lastCount = .now
                    group.addTask { await self.countQueue() }
                }
                await check()
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
            }
            group.cancelAll()
        }
    }

    /// A request or a write failed because the store is unavailable: reported until a check
    /// goes through.
    func noteFailure(_ why: String) {
        fail(why)
    }

    /// One check: a small write within ``timeout``. A check the store does not answer in time
    /// counts as a failure; it is not started again until the store answers it.
    func check() async {
        guard checking.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            fail("the store has not answered for more than \(timeout.inSeconds) s")
            return
        }
        let (store, clock, node) = (store, clock, node)
        do {
            try await DeadlineRace.run(within: timeout, timeoutError: { ServerError.configuration("the store did not answer within \(self.timeout.inSeconds) s") }) {
                defer { self.checking.store(false, ordering: .releasing) }
                try await store.checkWrite(node: node, now: clock.now)
            }
            succeed()
        } catch {
            fail("\(error)")
        }
    }

    /// Counts the queue (best effort: the last count stays until a new one); the caller has
    /// set ``counting``, which this clears.
    private func countQueue() async {
        let (store, clock) = (store, clock)
        // Within a deadline, so that a count the store never answers cannot hold up stopping
        // (a query in flight may not honour cancellation); ``counting`` stays set until it
        // does answer, so counts do not pile up.
        _ = try? await DeadlineRace.run(within: Self.queueInterval, timeoutError: { CancellationError() }) {
            defer { self.counting.store(false, ordering: .releasing) }
            if let summary = try? await store.queueSummary(now: clock.now) {
                self.state.withLock { $0.queue = summary }
            }
        }
    }

    private func succeed() {
        let now = clock.now
        let wasFailing = state.withLock { state in
            defer {
                state.answeredAt = now
                state.storeError = nil
                state.failingSince = nil
            }
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
        if first { logger.warning("the store does not answer or cannot write", metadata: ["error": "\(why)"]) }
    }
}
