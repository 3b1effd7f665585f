import Synchronization

/// The first of several results, for whoever waits on it: an answer, or a deadline
/// (``run(within:timeoutError:_:)``, used for every wait on the store that must stay bounded).
final class DeadlineRace<Value: Sendable>: Sendable {
    private struct State {
        var result: Result<Value, any Error>?
        var waiter: CheckedContinuation<Result<Value, any Error>, Never>?
    }

    private let state = Mutex(State())

    /// Settles the race with `result`, unless it is settled already.
    func finish(_ result: Result<Value, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Value, any Error>, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    /// Waits for the first result.
    func result() async -> Result<Value, any Error> {
        await withCheckedContinuation { continuation in
            let settled = state.withLock { state -> Result<Value, any Error>? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }

    /// Runs `work` and returns its result, or throws `timeoutError()` once `deadline` has
    /// passed first (or `CancellationError` at once when the caller is cancelled). The work is
    /// not cancelled: it goes on in the background and ends when it ends (a store that does not
    /// answer may not honour cancellation, and a write under way should complete).
    static func run(
        within deadline: Duration, timeoutError: @escaping @Sendable () -> any Error, _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let race = DeadlineRace<Value>()
        Task {
            do {
                race.finish(.success(try await work()))
            } catch {
                race.finish(.failure(error))
            }
        }
        let timer = Task {
            try await Task.sleep(for: deadline)
            race.finish(.failure(timeoutError()))
        }
        let result = await withTaskCancellationHandler {
            await race.result()
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
        timer.cancel()
        return try result.get()
    }
}
