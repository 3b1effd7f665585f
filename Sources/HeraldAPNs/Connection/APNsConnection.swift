import Foundation
import HeraldCore
import NIOCore
import HeraldHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// One HTTP/2 connection to APNs; each notification is one stream.
final class APNsConnection: Sendable {
    /// A request as it goes on the wire.
    struct Request: Sendable {
        var path: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]
    }

    /// An answer as it came off the wire (the headers APNs sends, and its JSON body).
    struct Response: Sendable {
        var status = 0
        var apnsID: String?
        var uniqueID: String?
        var body: [UInt8] = []
    }

    /// A request handed over from another thread, waiting for the event loop.
    private struct Submission: Sendable {
        var request: Request
        var timeout: TimeAmount
        var completion: @Sendable (Result<Response, Failure>) -> Void
    }

    /// Why a request got no answer on this connection.
    enum Failure: Error {
        /// The server is closing the connection and never processed the request: resend it
        /// elsewhere, it cannot have been delivered. The text says why, when the connection broke
        /// for a reason (a protocol error from the server, say).
        case notProcessed(String?)
        /// The request waited its whole timeout for a stream (the server's stream limit left
        /// no room) and was never sent; the text says what the server allowed.
        case notOpened(String)
        case timeout
        case lost(String)
    }

    let channel: any Channel
    let status: ConnectionStatus
    /// When the connection was ready: one lost soon after without answering anything counts as
    /// a failed connect for the pool's back-off.
    let openedAt = ContinuousClock.now
    private let handler: NIOLoopBound<APNsClientHandler>
    private let inFlightCount = Atomic<Int>(0)
    /// Requests started from other threads; the event loop takes them all in one turn.
    private let submissions = Mutex<[Submission]>([])

    private init(channel: any Channel, handler: NIOLoopBound<APNsClientHandler>, status: ConnectionStatus) {
        self.channel = channel
        self.handler = handler
        self.status = status
    }

    /// Requests in flight on this connection (reserved by the pool when it hands the
    /// connection out, given back when the pool takes the room back).
    var inFlight: Int { inFlightCount.load(ordering: .relaxed) }

    /// Takes the connection out of use (the server said it is closing it); requests in flight
    /// still get their answers.
    func retire() {
        status.update { $0.closed = true }
    }

    func reserve() { inFlightCount.add(1, ordering: .relaxed) }

    func unreserve() { inFlightCount.subtract(1, ordering: .relaxed) }

    /// False once the connection is closed or the server said GOAWAY.
    var isUsable: Bool {
        let snapshot = status.snapshot
        return channel.isActive && snapshot.goAwayLastStreamID == nil && !snapshot.closed
    }

    /// Why a connection that just opened cannot be used.
    func unusableReason(host: String, port: Int) -> String {
        let snapshot = status.snapshot
        if let last = snapshot.goAwayLastStreamID {
            return "\(host):\(port): the server said GOAWAY (last stream \(last)\(snapshot.goAwayReason.map { ", \($0)" } ?? "")) as soon as the connection opened"
        }
        return "\(host):\(port): the connection closed as soon as it opened" + (snapshot.brokenBecause.map { " (\($0))" } ?? "")
    }

    /// Connects, negotiates TLS and ALPN h2 (or HTTP/2 with prior knowledge in cleartext).
    static func connect(
        host: String, port: Int, tlsContext: NIOSSLContext?, connectTimeout: Duration, group: any EventLoopGroup,
        pingInterval: Duration? = nil, pingTimeout: Duration = .seconds(10)
    ) async throws(APNsClientError) -> APNsConnection {
        let status = ConnectionStatus()
        let serverHostname = host.isIPAddress ? nil : host
        let deadline = ContinuousClock.now + connectTimeout
        do {
            let (channel, handler) = try await ClientBootstrap(group: group)
                .connectTimeout(TimeAmount(connectTimeout))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        if let tlsContext {
                            try pipeline.addHandler(try NIOSSLClientHandler(context: tlsContext, serverHostname: serverHostname))
                        }
                        let framing = HTTP2FramingHandler(
                            role: .client, configuration: HTTP2FramingConfiguration(settingsTimeout: TimeAmount(connectTimeout))
                        )
                        try pipeline.addHandler(framing)
                        let handler = APNsClientHandler(
                            authority: host, status: status, framing: framing, pingInterval: pingInterval.map(TimeAmount.init), pingTimeout: TimeAmount(pingTimeout)
                        )
                        try pipeline.addHandler(handler)
                        return (channel, NIOLoopBound(handler, eventLoop: channel.eventLoop))
                    }
                }
            // Wait for the server's SETTINGS so the first requests respect its stream limit, for
            // what is left of the connect timeout (it bounds TCP, TLS and SETTINGS together).
            let wait = TimeAmount(max(deadline - .now, .milliseconds(1)))
            try await channel.eventLoop.flatSubmit {
                channel.eventLoop.assumeIsolated().scheduleTask(in: wait) {
                    handler.value.settleReady(APNsClientError.connectionFailed("\(host):\(port): no HTTP/2 settings within the connect timeout"))
                }
                return handler.value.readyFuture!
            }
                .flatMapError { (error: any Error) -> EventLoopFuture<Void> in
                    channel.close(promise: nil)
                    if case .certificateRejected(let inner) = error as? APNsClientError {
                        return channel.eventLoop.makeFailedFuture(APNsClientError.certificateRejected("\(host):\(port): \(inner)"))
                    }
                    var why = "closed before its HTTP/2 settings"
                    if case .connectionFailed(let inner) = error as? APNsClientError { why = inner }
                    return channel.eventLoop.makeFailedFuture(APNsClientError.connectionFailed("\(host):\(port): \(why)"))
                }
                .get()
            return APNsConnection(channel: channel, handler: handler, status: status)
        } catch let error as APNsClientError {
            throw error
        } catch {
            switch TransportErrorText.clientError(error) {
            case .certificateRejected(let why): throw .certificateRejected("\(host):\(port): \(why)")
            case .connectionFailed(let why): throw .connectionFailed("\(host):\(port): \(why)")
            default: throw .connectionFailed("\(host):\(port): \(error)")
            }
        }
    }

    /// Sends one request on a new stream and waits (at most `timeout`) for its answer.
    func send(_ request: Request, timeout: Duration) async throws(Failure) -> Response {
        let handler = self.handler
        let eventLoop = channel.eventLoop
        let amount = TimeAmount(timeout)
        do {
            return try await eventLoop.flatSubmit { handler.value.send(request, timeout: amount, on: eventLoop) }.get()
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .lost("\(error)")
        }
    }

    /// Starts a request without waiting: `completion` runs on the connection's event loop with
    /// the answer or the failure. Requests started from other threads are queued and handed to
    /// the event loop in batches: one wake-up for all that came while it was busy.
    func start(_ request: Request, timeout: Duration, completion: @escaping @Sendable (Result<Response, Failure>) -> Void) {
        let eventLoop = channel.eventLoop
        if eventLoop.inEventLoop {
            handler.value.start(request, timeout: TimeAmount(timeout), completion: completion)
            return
        }
        let first = submissions.withLock { queue in
            queue.append(Submission(request: request, timeout: TimeAmount(timeout), completion: completion))
            return queue.count == 1
        }
        if first { eventLoop.execute { self.startSubmitted() } }
    }

    private func startSubmitted() {
        let batch = submissions.withLock { queue in
            var batch: [Submission] = []
            swap(&batch, &queue)
            return batch
        }
        let handler = self.handler.value
        for submission in batch {
            handler.start(submission.request, timeout: submission.timeout, completion: submission.completion)
        }
    }

    /// Closes the connection; streams in flight fail.
    func close() {
        channel.close(promise: nil)
    }

}

extension String {
    /// True for an IPv4 or IPv6 literal (no SNI is sent for those).
    var isIPAddress: Bool {
        (try? SocketAddress(ipAddress: self, port: 0)) != nil
    }
}
