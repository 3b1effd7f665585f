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
        /// Why the connection broke, when a layer below said (a protocol error, TLS).
        var brokenBecause: String?
    }

    private let state = Mutex(Snapshot())
    private let answeredOnce = Atomic<Bool>(false)

    /// True once the server answered a request on this connection: a connection that never
    /// did, and was lost, counts as a failed connect for the pool's back-off.
    var hasAnswered: Bool { answeredOnce.load(ordering: .relaxed) }

    /// Notes an answer (one relaxed load per answer once set).
    func noteAnswer() {
        if !answeredOnce.load(ordering: .relaxed) { answeredOnce.store(true, ordering: .relaxed) }
    }

    var snapshot: Snapshot { state.withLock { $0 } }

    func update(_ change: (inout Snapshot) -> Void) {
        state.withLock { change(&$0) }
    }
}
