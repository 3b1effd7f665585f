/// The results of a bulk send, one per notification, in the order they come (not the order of
/// the notifications). Results are handed over in batches internally, so reading them costs one
/// wake-up per batch rather than one per notification.
public struct APNsResults: AsyncSequence, Sendable {
    public typealias Element = APNsResult

    let batches: AsyncThrowingStream<[APNsResult], any Error>

    public struct AsyncIterator: AsyncIteratorProtocol {
        var batches: AsyncThrowingStream<[APNsResult], any Error>.AsyncIterator
        var batch: [APNsResult] = []
        var index = 0

        /// The next result; `nil` after the last; throws if the notifications' sequence threw.
        public mutating func next() async throws -> APNsResult? {
            while index == batch.count {
                guard let next = try await batches.next() else { return nil }
                batch = next
                index = 0
            }
            defer { index += 1 }
            return batch[index]
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(batches: batches.makeAsyncIterator())
    }
}
