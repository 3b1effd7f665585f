import HeraldAPNs
import HeraldCore
import Synchronization

/// Notifications for ``HeraldAPNs/APNsClient/send(all:)`` that each take a ``SendWindow``
/// permit as the client pulls them, so one bulk send keeps the pipe full while the window
/// bounds what is sent and not yet recorded. It ends early, without taking a permit, when
/// `mayContinue` says no (the lease is ending, the server is stopping); ``yielded`` says how
/// many went out.
struct WindowedFeed: AsyncSequence, Sendable {
    typealias Element = PushNotification

    /// How far the client got.
    final class Progress: Sendable {
        private let state = Mutex((yielded: 0, stopped: false))
        var yielded: Int { state.withLock { $0.yielded } }
        /// True when `mayContinue` ended the feed before its last notification.
        var stopped: Bool { state.withLock { $0.stopped } }
        fileprivate func count() { state.withLock { $0.yielded += 1 } }
        fileprivate func stop() { state.withLock { $0.stopped = true } }
    }

    let notifications: [PushNotification]
    let window: SendWindow
    let mayContinue: @Sendable () -> Bool
    let progress = Progress()

    struct AsyncIterator: AsyncIteratorProtocol {
        let feed: WindowedFeed
        var index = 0

        mutating func next() async -> PushNotification? {
            guard index < feed.notifications.count else { return nil }
            guard feed.mayContinue(), await feed.window.acquire(1, stop: { !feed.mayContinue() }) else {
                feed.progress.stop()
                return nil
            }
            defer { index += 1 }
            feed.progress.count()
            return feed.notifications[index]
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(feed: self) }
}
