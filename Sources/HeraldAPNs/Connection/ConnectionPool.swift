import NIOCore
import NIOSSL

/// The connections of one client: made on demand up to the configured number, streams spread to
/// the least busy, closing or closed connections replaced, and in-flight notifications bounded
/// (callers wait for room instead of piling up memory).
actor ConnectionPool {
    private let host: String
    private let port: Int
    private let tlsContext: NIOSSLContext?
    private let connectTimeout: Duration
    private let group: any EventLoopGroup
    private let target: Int
    private let streamsPerConnection: Int
    private let pingInterval: Duration?
    private let pingTimeout: Duration

    private var connections: [APNsConnection] = []
    private var connecting: Task<APNsConnection, any Error>?
    private var inFlight = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var drained: [CheckedContinuation<Void, Never>] = []
    private var isShutDown = false

    init(
        host: String, port: Int, tlsContext: NIOSSLContext?, connectTimeout: Duration, group: any EventLoopGroup,
        connections: Int, streamsPerConnection: Int, pingInterval: Duration? = nil, pingTimeout: Duration = .seconds(10)
    ) {
        self.pingInterval = pingInterval
        self.pingTimeout = pingTimeout
        self.host = host
        self.port = port
        self.tlsContext = tlsContext
        self.connectTimeout = connectTimeout
        self.group = group
        self.target = connections
        self.streamsPerConnection = streamsPerConnection
    }

    /// Room for one more notification and the connection to send it on.
    func acquire() async throws(APNsClientError) -> APNsConnection {
        while inFlight >= target * streamsPerConnection, !isShutDown {
            await withCheckedContinuation { waiting.append($0) }
        }
        if isShutDown { throw .shutDown }
        inFlight += 1
        do {
            return try await pick()
        } catch {
            release()
            throw error
        }
    }

    /// Gives back the room taken by ``acquire()``.
    func release() {
        inFlight -= 1
        if !waiting.isEmpty { waiting.removeFirst().resume() }
        if inFlight == 0 {
            drained.forEach { $0.resume() }
            drained = []
        }
    }

    /// Opens every connection now instead of on first use.
    func warmUp() async throws(APNsClientError) {
        while connections.filter(\.isUsable).count < target {
            _ = try await connect()
        }
    }

    /// The open connections (for observing; tests and benchmarks).
    var openConnections: Int { connections.filter(\.isUsable).count }

    /// Stops taking notifications, waits for those in flight, and closes every connection.
    func shutdown() async {
        isShutDown = true
        waiting.forEach { $0.resume() }
        waiting = []
        if inFlight > 0 { await withCheckedContinuation { drained.append($0) } }
        connections.forEach { $0.close() }
        connections = []
    }

    private func pick() async throws(APNsClientError) -> APNsConnection {
        connections.removeAll { !$0.isUsable }
        let best = connections.min { $0.inFlight < $1.inFlight }
        if let best, best.inFlight < room(on: best) || connections.count >= target {
            if connections.count < target, best.inFlight > 0 { startConnecting() }
            return best
        }
        return try await connect()
    }

    /// Streams a connection can take now: the configured number, or fewer if the server's
    /// SETTINGS_MAX_CONCURRENT_STREAMS says so (it changes as the connection goes).
    private func room(on connection: APNsConnection) -> Int {
        min(streamsPerConnection, connection.status.snapshot.maxConcurrentStreams ?? streamsPerConnection)
    }

    /// Starts a connection in the background, unless one is already being made.
    private func startConnecting() {
        guard connecting == nil else { return }
        Task { _ = try? await self.connect() }
    }

    private func connect() async throws(APNsClientError) -> APNsConnection {
        let task: Task<APNsConnection, any Error>
        if let connecting {
            task = connecting
        } else {
            let (host, port, tlsContext, connectTimeout, group) = (self.host, self.port, self.tlsContext, self.connectTimeout, self.group)
            let (pingInterval, pingTimeout) = (self.pingInterval, self.pingTimeout)
            task = Task {
                try await APNsConnection.connect(
                    host: host, port: port, tlsContext: tlsContext, connectTimeout: connectTimeout, group: group,
                    pingInterval: pingInterval, pingTimeout: pingTimeout
                )
            }
            connecting = task
        }
        let result = await task.result
        if connecting == task { connecting = nil }
        switch result {
        case .success(let connection):
            if !connections.contains(where: { $0 === connection }) {
                if isShutDown {
                    connection.close()
                    throw .shutDown
                }
                connections.append(connection)
            }
            return connection
        case .failure(let error):
            throw (error as? APNsClientError) ?? .connectionFailed("\(error)")
        }
    }
}
