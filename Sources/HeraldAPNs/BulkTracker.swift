import NIOPosix
import Synchronization

/// Counts the notifications of one bulk send still without a result, hands results to its
/// stream in batches, bounds how many may be outstanding, and finishes the stream after the last.
final class BulkTracker: Sendable {
    private struct State {
        var outstanding = 0
        var inputDone = false
        var finished = false
        var waiting: CheckedContinuation<Void, Never>?
        /// Results not yet handed to the stream.
        var ready: [APNsResult] = []
    }

    private let continuation: AsyncThrowingStream<[APNsResult], any Error>.Continuation
    private let limit: Int
    private let state = Mutex(State())

    init(continuation: AsyncThrowingStream<[APNsResult], any Error>.Continuation, limit: Int) {
        self.continuation = continuation
        self.limit = limit
    }

    /// Suspends while `limit` notifications are outstanding.
    func waitForRoom() async {
        if state.withLock({ $0.outstanding < limit }) { return }
        await withCheckedContinuation { waiter in
            let now = state.withLock { state in
                if state.outstanding < limit { return true }
                state.waiting = waiter
                return false
            }
            if now { waiter.resume() }
        }
    }

    func begin() {
        state.withLock { $0.outstanding += 1 }
    }

    /// Takes one result. On an event loop, results gathered during one turn (one read's worth
    /// of answers) are handed over together at its end; elsewhere at once.
    func finish(_ result: APNsResult) {
        let first = state.withLock { state in
            state.ready.append(result)
            return state.ready.count == 1
        }
        guard first else { return }
        if let eventLoop = MultiThreadedEventLoopGroup.currentEventLoop {
            eventLoop.execute { self.handOver() }
        } else {
            handOver()
        }
    }

    /// Yields the results gathered so far; the stream ends after the last once the input is done.
    /// Yielding and finishing happen under the lock, so no batch can arrive after the end.
    private func handOver() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            var batch: [APNsResult] = []
            swap(&batch, &state.ready)
            state.outstanding -= batch.count
            if !batch.isEmpty { continuation.yield(batch) }
            if state.inputDone, state.outstanding == 0, !state.finished {
                state.finished = true
                continuation.finish()
            }
            let waiter = state.outstanding < limit ? state.waiting : nil
            if waiter != nil { state.waiting = nil }
            return waiter
        }
        waiter?.resume()
    }

    /// No more notifications will come.
    func inputDone() {
        state.withLock { state in
            state.inputDone = true
            if state.outstanding == 0, !state.finished {
                state.finished = true
                continuation.finish()
            }
        }
    }

    /// The input sequence failed: the stream ends with its error.
    func fail(_ error: any Error) {
        state.withLock { state in
            if !state.finished { continuation.finish(throwing: error) }
            state.finished = true
        }
    }
}
