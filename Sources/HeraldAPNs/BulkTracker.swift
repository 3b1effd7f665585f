import Synchronization

/// Counts the notifications of one bulk send still without a result, yields results into its
/// stream, bounds how many may be outstanding, and finishes the stream after the last one.
final class BulkTracker: Sendable {
    private struct State {
        var outstanding = 0
        var inputDone = false
        var finished = false
        var waiting: CheckedContinuation<Void, Never>?
    }

    private let continuation: AsyncThrowingStream<APNsResult, any Error>.Continuation
    private let limit: Int
    private let state = Mutex(State())

    init(continuation: AsyncThrowingStream<APNsResult, any Error>.Continuation, limit: Int) {
        self.continuation = continuation
        self.limit = limit
    }

    /// Suspends while `limit` notifications are outstanding.
    func waitForRoom() async {
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

    /// Yields one result; the stream ends after the last once the input is done.
    func finish(_ result: APNsResult) {
        continuation.yield(result)
        let (waiter, end) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Bool) in
            state.outstanding -= 1
            let waiter = state.outstanding < limit ? state.waiting : nil
            if waiter != nil { state.waiting = nil }
            let end = state.inputDone && state.outstanding == 0 && !state.finished
            if end { state.finished = true }
            return (waiter, end)
        }
        waiter?.resume()
        if end { continuation.finish() }
    }

    /// No more notifications will come.
    func inputDone() {
        let end = state.withLock { state -> Bool in
            state.inputDone = true
            let end = state.outstanding == 0 && !state.finished
            if end { state.finished = true }
            return end
        }
        if end { continuation.finish() }
    }

    /// The input sequence failed: the stream ends with its error.
    func fail(_ error: any Error) {
        let end = state.withLock { state -> Bool in
            defer { state.finished = true }
            return !state.finished
        }
        if end { continuation.finish(throwing: error) }
    }
}
