import Synchronization

/// Wakes a waiting loop (idle workers, the outcome recorder, the webhook sender) when there is
/// new work, so it does not wait for its next poll. A signal given while nobody waits is not
/// kept: waits are short and bounded by their timeout.
final class WakeSignal: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        /// Waits under way, with their continuation once it is registered.
        var waits: [UInt64: CheckedContinuation<Void, Never>?] = [:]
        /// Waits ended (timed out, cancelled) before their continuation was registered.
        var endedEarly: Set<UInt64> = []
    }

    private let state = Mutex(State())

    /// Wakes every waiter.
    func signal() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            var woken: [CheckedContinuation<Void, Never>] = []
            for (id, continuation) in state.waits {
                if let continuation {
                    woken.append(continuation)
                    state.waits[id] = .some(nil)
                } else {
                    state.endedEarly.insert(id)
                }
            }
            return woken
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns after `timeout`, at a signal, or when the task is cancelled, whichever is first.
    func wait(timeout: Duration) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.waits[state.nextID] = .some(nil)
            return state.nextID
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { self.end(id) }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ended = state.withLock { state -> Bool in
                    if state.endedEarly.remove(id) != nil || Task.isCancelled { return true }
                    state.waits[id] = continuation
                    return false
                }
                if ended { continuation.resume() }
            }
        } onCancel: {
            self.end(id)
        }
        timer.cancel()
        state.withLock { state in
            state.waits[id] = nil
            state.endedEarly.remove(id)
        }
    }

    /// Ends the wait `id`: resumes it, or marks it to end as soon as it registers.
    private func end(_ id: UInt64) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let entry = state.waits[id] else { return nil }
            if let continuation = entry {
                state.waits[id] = .some(nil)
                return continuation
            }
            state.endedEarly.insert(id)
            return nil
        }
        continuation?.resume()
    }
}
