/// Runs an app's notification-center operations one at a time, in the order the app made them,
/// as UNUserNotificationCenter's own queue does (an `add` then a `removePending…` never swap).
///
/// App code called from inside an operation (a delegate answering while a request is added)
/// that waits for another operation runs it at once instead of queueing behind itself.
final class CenterQueue: Sendable {
    @TaskLocal static var isRunningOperation = false

    private let continuation: AsyncStream<@Sendable () async -> Void>.Continuation

    init() {
        let (stream, continuation) = AsyncStream<@Sendable () async -> Void>.makeStream()
        self.continuation = continuation
        Task {
            for await operation in stream {
                await CenterQueue.$isRunningOperation.withValue(true) { await operation() }
            }
        }
    }

    deinit { continuation.finish() }

    /// Queues an operation and returns at once.
    func enqueue(_ operation: @escaping @Sendable () async -> Void) {
        continuation.yield(operation)
    }

    /// Queues an operation and waits for its result.
    func perform<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async -> T {
        if Self.isRunningOperation { return await operation() }
        return await withCheckedContinuation { (result: CheckedContinuation<T, Never>) in
            continuation.yield { result.resume(returning: await operation()) }
        }
    }

    /// Returns once every operation queued before the call has run.
    func settle() async {
        await perform {}
    }
}
