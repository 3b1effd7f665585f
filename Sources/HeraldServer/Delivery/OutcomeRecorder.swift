import Foundation
import HeraldCore
import HeraldStore
import Logging
import Synchronization

/// Writes delivery outcomes to the store as they come in, a few milliseconds' worth at a time,
/// instead of once per batch: a crash then re-sends at most what was in flight. When the store
/// cannot take them (down, disk full), the outcomes stay here and the write is tried again
/// with back-off; nothing already answered is dropped. Workers stop claiming while too many
/// wait (``backlog``), so memory stays bounded.
final class OutcomeRecorder: Sendable {
    private struct State {
        var buffer: [DeliveryOutcome] = []
        /// Outcomes taken for the write under way.
        var writing = 0
        var stopped = false
        /// Since when writes fail, and why (nil when the last write went through).
        var failingSince: Date?
        var lastError: String?
        var failedWrites = 0
    }

    private let state = Mutex(State())
    private let wake = WakeSignal()
    private let store: any HeraldStore
    private let logger: Logger
    private let clock: any WallClock
    /// How long outcomes gather before a write.
    let interval: Duration
    /// A write starts at once when this many are waiting.
    let eagerCount: Int
    /// Called after each write that went through, with what it wrote.
    private let written: @Sendable ([DeliveryOutcome]) -> Void

    init(
        store: any HeraldStore, logger: Logger, clock: any WallClock, interval: Duration = .milliseconds(5), eagerCount: Int = 500,
        written: @escaping @Sendable ([DeliveryOutcome]) -> Void = { _ in }
    ) {
        self.store = store
        self.logger = logger
        self.clock = clock
        self.interval = interval
        self.eagerCount = eagerCount
        self.written = written
    }

    /// Queues outcomes for the next write.
    func add(_ outcomes: some Sequence<DeliveryOutcome>) {
        let count = state.withLock { state in
            state.buffer.append(contentsOf: outcomes)
            return state.buffer.count
        }
        if count >= eagerCount { wake.signal() }
    }

    /// Outcomes not yet in the store.
    var backlog: Int { state.withLock { $0.buffer.count + $0.writing } }

    /// Since when writes have been failing, and the last error (nil when they go through).
    var failure: (since: Date, error: String)? {
        state.withLock { state in state.failingSince.map { ($0, state.lastError ?? "") } }
    }

    /// Writes until ``stop()``, then writes what is left (giving up after `drainTimeout`).
    func run(drainTimeout: Duration = .seconds(10)) async {
        var backoff = Duration.milliseconds(50)
        var drainDeadline: ContinuousClock.Instant?
        while true {
            let (batch, stopped) = state.withLock { state -> ([DeliveryOutcome], Bool) in
                let batch = state.buffer
                state.buffer.removeAll(keepingCapacity: true)
                state.writing = batch.count
                return (batch, state.stopped)
            }
            if stopped, drainDeadline == nil { drainDeadline = .now + drainTimeout }
            if batch.isEmpty {
                if stopped { return }
                await wake.wait(timeout: interval)
                continue
            }
            do {
                try await store.record(batch)
                state.withLock { state in
                    state.writing = 0
                    if let since = state.failingSince {
                        logger.notice("outcomes are recorded again", metadata: ["failingFor": "\(clock.now.timeIntervalSince(since))s"])
                    }
                    state.failingSince = nil
                    state.lastError = nil
                }
                written(batch)
                backoff = .milliseconds(50)
                if !stopped { await wake.wait(timeout: interval) }
            } catch {
                let now = clock.now
                let first = state.withLock { state in
                    // Back in front, in their order, for the next try.
                    state.buffer.insert(contentsOf: batch, at: 0)
                    state.writing = 0
                    state.failedWrites += 1
                    state.lastError = "\(error)"
                    defer { if state.failingSince == nil { state.failingSince = now } }
                    return state.failingSince == nil || state.failedWrites % 50 == 0
                }
                if first {
                    logger.warning("cannot record delivery outcomes; kept in memory and tried again", metadata: ["waiting": "\(batch.count)", "error": "\(error)"])
                }
                if let drainDeadline, ContinuousClock.now >= drainDeadline {
                    logger.error("outcomes not recorded at shutdown; these deliveries will be sent again", metadata: ["count": "\(backlog)"])
                    return
                }
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(2))
            }
        }
    }

    /// Asks ``run(drainTimeout:)`` to write what is left and return.
    func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
    }
}
