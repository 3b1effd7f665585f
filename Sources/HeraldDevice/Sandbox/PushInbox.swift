/// Pushes that arrived from the sandbox and wait to be handed to the device, in order.
actor PushInbox {
    private var buffer: [IncomingPush] = []
    private var waiter: (generation: Int, continuation: CheckedContinuation<IncomingPush?, Never>)?
    private var generation = 0

    func put(_ push: IncomingPush) {
        if let waiter {
            self.waiter = nil
            waiter.continuation.resume(returning: push)
        } else {
            buffer.append(push)
        }
    }

    /// The next push, or `nil` when none arrives within `timeout` seconds.
    func next(timeout: Double) async -> IncomingPush? {
        if !buffer.isEmpty { return buffer.removeFirst() }
        generation += 1
        let current = generation
        return await withCheckedContinuation { continuation in
            waiter = (current, continuation)
            Task {
                try? await Task.sleep(for: .seconds(timeout))
                self.expire(current)
            }
        }
    }

    private func expire(_ generation: Int) {
        guard let waiter, waiter.generation == generation else { return }
        self.waiter = nil
        waiter.continuation.resume(returning: nil)
    }
}
