import NIOCore
import NIOSSL
import Synchronization

/// The connections of one client: made on demand up to the configured number, streams spread to
/// the least busy, closing or closed connections replaced, and in-flight notifications bounded
/// (callers wait for room instead of piling up memory).
///
/// A lock, not an actor: taking and giving back room is the hot path of every notification, and
/// it must not cost a hop to another executor. Only waiting (for room or for a connection) suspends.
final class ConnectionPool: Sendable {
    private let host: String
    private let port: Int
    private let tlsContext: NIOSSLContext?
    private let connectTimeout: Duration
    private let group: any EventLoopGroup
    private let target: Int
    private let streamsPerConnection: Int
    private let pingInterval: Duration?
    private let pingTimeout: Duration

    private struct State {
        var connections: [APNsConnection] = []
        var connecting: Task<APNsConnection, any Error>?
        var inFlight = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var drained: [CheckedContinuation<Void, Never>] = []
        var isShutDown = false
        /// Connections taken out of use (GOAWAY, closed); shutdown closes any still open.
        var retired: [APNsConnection] = []
        /// Connects in a row that failed, or whose connection was lost soon after it opened
        /// without answering anything: the next connect waits longer for each
        /// (``connectBackoff``).
        var connectFailures = 0
        /// The last refusal of the server's certificate and until when it stands: acquiring
        /// fails at once meanwhile, instead of a handshake per waiting notification.
        var certificateRejection: (error: APNsClientError, until: ContinuousClock.Instant)?

        /// Takes connections that are closing or closed out of use, noting those lost within
        /// ``shortLivedConnection`` that never answered (a server that says GOAWAY or breaks
        /// the protocol at once). A connection closed after idling is no failure.
        mutating func retireUnusable() {
            guard connections.contains(where: { !$0.isUsable }) else { return }
            let now = ContinuousClock.now
            for connection in connections where !connection.isUsable {
                retired.append(connection)
                if connection.status.hasAnswered {
                    connectFailures = 0
                } else if now - connection.openedAt < ConnectionPool.shortLivedConnection {
                    connectFailures += 1
                }
            }
            connections.removeAll { !$0.isUsable }
        }
    }

    /// A connection lost sooner than this after it opened, with no answer, counts as a failed
    /// connect.
    static let shortLivedConnection = Duration.seconds(2)

    /// The wait before a connect after `failures` failed ones in a row: none after none, then
    /// 100 ms doubling up to 5 s (less up to half, at random), so a server that refuses or drops every connection at once
    /// is not reconnected to in a tight loop.
    static func connectBackoff(after failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        let bound = min(.milliseconds(100) * (1 << min(failures - 1, 6)), .seconds(5))
        // Between half the bound and the bound: clients that failed together do not retry in step.
        return bound * Double.random(in: 0.5...1)
    }

    private let state = Mutex(State())

    init(
        host: String, port: Int, tlsContext: NIOSSLContext?, connectTimeout: Duration, group: any EventLoopGroup,
        connections: Int, streamsPerConnection: Int, pingInterval: Duration? = nil, pingTimeout: Duration = .seconds(10)
    ) {
        self.host = host
        self.port = port
        self.tlsContext = tlsContext
        self.connectTimeout = connectTimeout
        self.group = group
        self.target = connections
        self.streamsPerConnection = streamsPerConnection
        self.pingInterval = pingInterval
        self.pingTimeout = pingTimeout
    }

    private enum Pick {
        case connection(APNsConnection)
        case connect
        case wait
        case shutDown
        case rejected(APNsClientError)
    }

    /// How long a refused server certificate stands before a handshake is tried again.
    static let certificateRejectionHold = Duration.seconds(10)

    /// Room for one more notification and the connection to send it on.
    func acquire() async throws(APNsClientError) -> APNsConnection {
        while true {
            let pick: Pick = state.withLock { state in
                if state.isShutDown { return .shutDown }
                if let rejection = state.certificateRejection {
                    if ContinuousClock.now < rejection.until { return .rejected(rejection.error) }
                    state.certificateRejection = nil
                }
                guard state.inFlight < target * streamsPerConnection else { return .wait }
                state.retireUnusable()
                let best = state.connections.min { $0.inFlight < $1.inFlight }
                if let best, best.inFlight < room(on: best) || state.connections.count >= target {
                    // A connection that answers ends the run of failures.
                    if state.connectFailures > 0, best.status.hasAnswered { state.connectFailures = 0 }
                    state.inFlight += 1
                    best.reserve()
                    return .connection(best)
                }
                return .connect
            }
            switch pick {
            case .shutDown:
                throw .shutDown
            case .rejected(let error):
                throw error
            case .connection(let connection):
                // Connect ahead: another connection is made while this one is already busy.
                if connection.inFlight > 0 { startConnecting() }
                return connection
            case .wait:
                await withCheckedContinuation { continuation in
                    let resumeNow = state.withLock { state in
                        if state.isShutDown || state.inFlight < target * streamsPerConnection { return true }
                        state.waiting.append(continuation)
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            case .connect:
                do throws(APNsClientError) {
                    let connection = try await connect()
                    // A server that says GOAWAY or closes as soon as it is connected to would
                    // otherwise be connected to again and again by this loop.
                    guard connection.isUsable else { throw APNsClientError.connectionFailed(connection.unusableReason(host: host, port: port)) }
                } catch {
                    // Another connection would not open: use a working one if there is one,
                    // else give up, and let the next waiter try (this one took no room).
                    let fallback: APNsConnection? = state.withLock { state in
                        guard state.inFlight < target * streamsPerConnection,
                            let best = state.connections.filter(\.isUsable).min(by: { $0.inFlight < $1.inFlight })
                        else { return nil }
                        state.inFlight += 1
                        best.reserve()
                        return best
                    }
                    if let fallback { return fallback }
                    wakeOneWaiter()
                    throw error
                }
            }
        }
    }

    private func wakeOneWaiter() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.waiting.isEmpty ? nil : state.waiting.removeFirst()
        }
        waiter?.resume()
    }

    /// Gives back the room taken by ``acquire()`` on `connection`.
    func release(_ connection: APNsConnection) {
        connection.unreserve()
        let (waiter, drained): (CheckedContinuation<Void, Never>?, [CheckedContinuation<Void, Never>]) = state.withLock { state in
            state.inFlight -= 1
            let waiter = state.waiting.isEmpty ? nil : state.waiting.removeFirst()
            var drained: [CheckedContinuation<Void, Never>] = []
            if state.inFlight == 0 {
                drained = state.drained
                state.drained = []
            }
            return (waiter, drained)
        }
        waiter?.resume()
        drained.forEach { $0.resume() }
    }

    /// Opens every connection now instead of on first use.
    func warmUp() async throws(APNsClientError) {
        // Bounded: a server that accepts and closes at once must not keep this looping.
        var tries = 0
        while openConnections < target {
            tries += 1
            if tries > 3 * target { throw .connectionFailed("\(host):\(port): connections close as soon as they open") }
            _ = try await connect()
        }
    }

    /// The open connections (for observing; tests and benchmarks).
    var openConnections: Int { state.withLock { $0.connections.filter(\.isUsable).count } }

    /// Stops taking notifications, waits for those in flight, and closes every connection.
    func shutdown() async {
        let (waiting, connecting) = state.withLock { state in
            state.isShutDown = true
            defer { state.waiting = [] }
            return (state.waiting, state.connecting)
        }
        waiting.forEach { $0.resume() }
        // A connection still being made must finish (and be closed) before the caller may shut
        // its event loops down; no new one starts once isShutDown is set. One still waiting out
        // its back-off stops waiting.
        connecting?.cancel()
        if let connecting, case .success(let connection) = await connecting.result { connection.close() }
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.inFlight == 0 { return true }
                state.drained.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
        let connections = state.withLock { state in
            defer {
                state.connections = []
                state.retired = []
            }
            return state.connections + state.retired
        }
        connections.forEach { $0.close() }
    }

    /// Streams a connection can take now: the configured number, or fewer if the server's
    /// SETTINGS_MAX_CONCURRENT_STREAMS says so (it changes as the connection goes).
    private func room(on connection: APNsConnection) -> Int {
        min(streamsPerConnection, connection.status.snapshot.maxConcurrentStreams ?? streamsPerConnection)
    }

    /// Starts a connection in the background, unless one is being made or there are enough.
    private func startConnecting() {
        let needed = state.withLock { $0.connecting == nil && $0.connections.count < target && !$0.isShutDown }
        guard needed else { return }
        Task { _ = try? await self.connect() }
    }

    private func connect() async throws(APNsClientError) -> APNsConnection {
        let started: Task<APNsConnection, any Error>? = state.withLock { state in
            if state.isShutDown { return nil }
            if let connecting = state.connecting { return connecting }
            let (host, port, tlsContext, connectTimeout, group) = (self.host, self.port, self.tlsContext, self.connectTimeout, self.group)
            let (pingInterval, pingTimeout) = (self.pingInterval, self.pingTimeout)
            let backoff = Self.connectBackoff(after: state.connectFailures)
            let task = Task {
                if backoff > .zero { try await Task.sleep(for: backoff) }
                return try await APNsConnection.connect(
                    host: host, port: port, tlsContext: tlsContext, connectTimeout: connectTimeout, group: group,
                    pingInterval: pingInterval, pingTimeout: pingTimeout
                )
            }
            state.connecting = task
            return task
        }
        guard let task = started else { throw .shutDown }
        let result = await task.result
        let outcome: Result<APNsConnection, APNsClientError> = state.withLock { state in
            if state.connecting == task { state.connecting = nil }
            switch result {
            case .success(let connection):
                if state.isShutDown { return .failure(.shutDown) }
                if !state.connections.contains(where: { $0 === connection }) { state.connections.append(connection) }
                return .success(connection)
            case .failure(let error):
                state.connectFailures += 1
                if error is CancellationError { return .failure(.shutDown) }
                let clientError = (error as? APNsClientError) ?? .connectionFailed("\(error)")
                if case .certificateRejected = clientError {
                    state.certificateRejection = (clientError, ContinuousClock.now + Self.certificateRejectionHold)
                }
                return .failure(clientError)
            }
        }
        switch outcome {
        case .success(let connection):
            return connection
        case .failure(let error):
            if case .success(let connection) = result { connection.close() }
            throw error
        }
    }
}
