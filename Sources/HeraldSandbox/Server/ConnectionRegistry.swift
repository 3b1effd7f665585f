import NIOCore
import Synchronization

/// The sandbox's open connections: shutdown says GOAWAY to each, and their number is bounded.
///
/// At the limit, a new connection takes the place of the oldest one that has not sent a request
/// yet (still in its TLS handshake, or silent since): holding every slot with connections that
/// do nothing must not keep real clients out. Only when every connection has sent a request is
/// the new one refused.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        var channel: any Channel
        /// In the order accepted.
        var sequence: Int
        /// The connection sent a request.
        var active = false
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var accepted = 0
    }

    private let state = Mutex(State())

    var all: [any Channel] { state.withLock { $0.entries.values.map(\.channel) } }
    var count: Int { state.withLock { $0.entries.count } }

    /// Adds a connection. With `limit` open already, the oldest that never sent a request is
    /// closed to make room; false (refuse the new one) if there is none.
    func add(_ channel: any Channel, limit: Int = .max) -> Bool {
        let evicted: (any Channel)? = state.withLock { state in
            var evicted: (any Channel)?
            if state.entries.count >= limit {
                guard let oldest = state.entries.filter({ !$0.value.active }).min(by: { $0.value.sequence < $1.value.sequence }) else { return nil }
                state.entries[oldest.key] = nil
                evicted = oldest.value.channel
            }
            state.accepted += 1
            state.entries[ObjectIdentifier(channel)] = Entry(channel: channel, sequence: state.accepted)
            return evicted ?? channel
        }
        guard let evicted else { return false }
        if evicted !== channel { evicted.close(promise: nil) }
        return true
    }

    /// The connection sent its first request: it is no longer the first to make room.
    func markActive(_ connection: ObjectIdentifier) {
        state.withLock { $0.entries[connection]?.active = true }
    }

    func remove(_ channel: any Channel) {
        _ = state.withLock { $0.entries.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}
