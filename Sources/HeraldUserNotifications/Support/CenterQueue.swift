import Synchronization

/// Runs an app's notification-center operations one at a time, in the order the app made them,
/// as UNUserNotificationCenter's own queue does (an `add` then a `removePending…` never swap).
///
/// An operation may call app code (adding a request that is delivered at once asks the
/// delegate's `willPresent`). Center calls that code makes go to a queue of their own for that
/// operation: in order among themselves, and never behind the operation that waits for them.
final class CenterQueue: Sendable {
    /// The queue for calls made while an operation runs, and the family of queues it belongs to
    /// (an app's queue and those nested in it share ``outstanding``).
    @TaskLocal static var nested: (family: ObjectIdentifier, queue: CenterQueue)?

    private let continuation: AsyncStream<@Sendable () async -> Void>.Continuation
    /// Operations queued and not finished, in this queue and the ones nested in it.
    private let outstanding: Arc

    /// A counter shared by a queue and its nested queues.
    final class Arc: Sendable {
        let count = Atomic(0)
    }

    convenience init() {
        self.init(outstanding: Arc())
    }

    private init(outstanding: Arc) {
        let (stream, continuation) = AsyncStream<@Sendable () async -> Void>.makeStream()
        self.continuation = continuation
        self.outstanding = outstanding
        Task { [outstanding] in
            for await operation in stream {
                await operation()
                outstanding.count.wrappingSubtract(1, ordering: .relaxed)
            }
        }
    }

    private var family: ObjectIdentifier { ObjectIdentifier(outstanding) }

    deinit { continuation.finish() }

    /// The queue a call should go to: the nested one while an operation of this queue runs.
    var current: CenterQueue {
        if let nested = Self.nested, nested.family == family { return nested.queue }
        return self
    }

    /// Queues an operation and returns at once.
    func enqueue(_ operation: @escaping @Sendable () async -> Void) {
        outstanding.count.wrappingAdd(1, ordering: .relaxed)
        let family = family
        let outstanding = outstanding
        continuation.yield {
            let inner = CenterQueue(outstanding: outstanding)
            await CenterQueue.$nested.withValue((family, inner)) { await operation() }
        }
    }

    /// Queues an operation and waits for its result.
    func perform<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async -> T {
        await withCheckedContinuation { (result: CheckedContinuation<T, Never>) in
            enqueue { result.resume(returning: await operation()) }
        }
    }

    /// Returns once every operation queued so far (nested ones included) has run, or after 30 s.
    func settle() async {
        let deadline = ContinuousClock.now + .seconds(30)
        while outstanding.count.load(ordering: .relaxed) > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}
