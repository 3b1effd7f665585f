import Synchronization

/// Waits for app code to call a completion handler, for at most `timeout`; `nil` when it never
/// did. Only the first call counts, as iOS ignores the others.
enum CompletionWaiter {
    static func wait<Value: Sendable>(
        timeout: Duration, _ call: (@escaping @Sendable (Value) -> Void) -> Void
    ) async -> Value? {
        let state = Mutex<(done: Bool, timer: Task<Void, Never>?)>((false, nil))
        return await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            let finish: @Sendable (Value?) -> Void = { value in
                let timer = state.withLock { state -> Task<Void, Never>?? in
                    guard !state.done else { return nil }
                    state.done = true
                    return .some(state.timer)
                }
                guard let timer else { return }
                timer?.cancel()
                continuation.resume(returning: value)
            }
            call { finish($0) }
            let timer = Task {
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { finish(nil) }
            }
            let alreadyDone = state.withLock { state in
                if !state.done { state.timer = timer }
                return state.done
            }
            if alreadyDone { timer.cancel() }
        }
    }
}

/// Tells the system side whether app code implemented an optional delegate method: the
/// protocols' default implementations mark the probe of the call in progress.
final class CallProbe: Sendable {
    @TaskLocal static var current: CallProbe?

    private let unimplemented = Mutex(false)

    /// Called by a default implementation.
    static func markUnimplemented() {
        current?.unimplemented.withLock { $0 = true }
    }

    var wasImplemented: Bool { !unimplemented.withLock { $0 } }

    /// Runs `body` with this probe as the current one.
    func run<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async -> T) async -> T {
        await CallProbe.$current.withValue(self, operation: body, isolation: isolation)
    }
}
