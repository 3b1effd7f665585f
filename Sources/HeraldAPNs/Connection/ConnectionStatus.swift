import Synchronization

/// What a connection has learned from the server's connection-level frames: whether it said
/// GOAWAY (and up to which stream it processed requests), and its stream limit.
final class ConnectionStatus: Sendable {
    struct Snapshot {
        /// Set once GOAWAY arrived: streams above it were never processed.
        var goAwayLastStreamID: Int?
        /// The JSON reason the server gave with GOAWAY, if any.
        var goAwayReason: String?
        /// The server's SETTINGS_MAX_CONCURRENT_STREAMS (1 until a token connection is unlocked).
        var maxConcurrentStreams: Int?
        var closed = false
    }

    private let state = Mutex(Snapshot())

    var snapshot: Snapshot { state.withLock { $0 } }

    func update(_ change: (inout Snapshot) -> Void) {
        state.withLock { change(&$0) }
    }
}
