import Foundation
import HeraldCore
import HeraldStore
import Logging
import Synchronization

/// Writes delivery outcomes to the store as they come in, whatever arrived during the previous
/// write at a time (at most ``interval`` after the first when idle), instead of once per batch: a crash then re-sends at most what was in flight. When the store
/// cannot take them (down, disk full), the outcomes stay here and the write is tried again
/// with back-off; nothing already answered is dropped. Workers stop claiming while too many
/// wait (``backlog``), so memory stays bounded.
final class OutcomeRecorder: Sendable {
    private struct State {
        var buffer: [DeliveryOutcome] = []
        /// Send-window permits held by the buffered outcomes (``SendWindow``).
        var permits = 0
        /// The queue rows of every outcome not yet written.
        var unwritten: Set<Int64> = []
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
    /// The node whose leases the outcomes are written under.
    private let owner: String
    private let logger: Logger
    private let clock: any WallClock
    /// How long an idle recorder takes to notice new outcomes, at most.
    let interval: Duration
    /// Given the permits of outcomes once they are written.
    let window: SendWindow

    init(store: any HeraldStore, owner: String, logger: Logger, clock: any WallClock, window: SendWindow, interval: Duration = .milliseconds(5)) {
        self.store = store
        self.owner = owner
        self.logger = logger
        self.clock = clock
        self.interval = interval
        self.window = window
    }

    /// Queues outcomes of deliveries that were not sent (no send-window permit) for the next write.
    func add(_ outcomes: [DeliveryOutcome]) {
        guard !outcomes.isEmpty else { return }
        let wasEmpty = state.withLock { state in
            defer {
                state.buffer.append(contentsOf: outcomes)
                for outcome in outcomes { state.unwritten.insert(outcome.id) }
            }
            return state.buffer.isEmpty
        }
        if wasEmpty { wake.signal() }
    }

    /// Queues the outcome of a sent delivery; its send-window permit goes back once it is written.
    func add(_ outcome: DeliveryOutcome) {
        let wasEmpty = state.withLock { state in
            defer {
                state.buffer.append(outcome)
                state.permits += 1
                state.unwritten.insert(outcome.id)
            }
            return state.buffer.isEmpty
        }
        // An idle recorder starts at once; a busy one takes what came in at its next write.
        if wasEmpty { wake.signal() }
    }

    /// Every row with an outcome waiting to be written.
    var unwrittenIDs: Set<Int64> { state.withLock { $0.unwritten } }

    /// The rows among `ids` with an outcome waiting to be written.
    func unwritten(among ids: [Int64]) -> Set<Int64> {
        state.withLock { state in state.unwritten.isEmpty ? [] : Set(ids.filter(state.unwritten.contains)) }
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
            let (batch, permits, stopped) = state.withLock { state -> ([DeliveryOutcome], Int, Bool) in
                let batch = state.buffer
                let permits = state.permits
                state.buffer.removeAll(keepingCapacity: true)
                state.permits = 0
                state.writing = batch.count
                return (batch, permits, state.stopped)
            }
            if stopped, drainDeadline == nil { drainDeadline = .now + drainTimeout }
            if batch.isEmpty {
                window.release(permits)
                if stopped { return }
                await wake.wait(timeout: interval)
                continue
            }
            do {
                try await store.record(batch, by: owner)
                let recovered = state.withLock { state in
                    state.writing = 0
                    for outcome in batch { state.unwritten.remove(outcome.id) }
                    defer {
                        state.failingSince = nil
                        state.lastError = nil
                    }
                    return state.failingSince
                }
                window.release(permits)
                if let recovered {
                    logger.notice("outcomes are recorded again", metadata: ["failingFor": "\(clock.now.timeIntervalSince(recovered))s"])
                }
                backoff = .milliseconds(50)
                // What came in during the write is written next, at once: under load writes
                // follow each other and grow with the rate; idle, the loop waits for a signal.
            } catch {
                let now = clock.now
                let first = state.withLock { state in
                    // Back in front, in their order, for the next try.
                    state.buffer.insert(contentsOf: batch, at: 0)
                    state.permits += permits
                    state.writing = 0
                    state.failedWrites += 1
                    state.lastError = "\(error)"
                    defer { if state.failingSince == nil { state.failingSince = now } }
                    return state.failingSince == nil || state.failedWrites % 50 == 0
                }
                if first {
                    logger.warning("cannot record delivery outcomes; kept in memory and tried again", metadata: ["waiting": "\(batch.count)", "error": "\(StoreError.describe(error))"])
                }
                if let drainDeadline, ContinuousClock.now >= drainDeadline || Task.isCancelled {
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
