import Foundation
import HeraldCore
import NIOCore
import HeraldHTTP2
import NIOHTTP2
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

    /// An answer as it came off the wire.
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    /// Why a request got no answer on this connection.
    enum Failure: Error {
        /// The server is closing the connection and never processed the request: resend it
        /// elsewhere, it cannot have been delivered.
        case notProcessed
        case timeout
        case lost(String)
    }

    let channel: any Channel
    let status: ConnectionStatus
    private let handler: NIOLoopBound<APNsClientHandler>
    private let inFlightCount = Atomic<Int>(0)

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

    /// Connects, negotiates TLS and ALPN h2 (or HTTP/2 with prior knowledge in cleartext).
    static func connect(
        host: String, port: Int, tlsContext: NIOSSLContext?, connectTimeout: Duration, group: any EventLoopGroup,
        pingInterval: Duration? = nil, pingTimeout: Duration = .seconds(10)
    ) async throws(APNsClientError) -> APNsConnection {
        let status = ConnectionStatus()
        let serverHostname = host.isIPAddress ? nil : host
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
                        try pipeline.addHandler(HTTP2FramingHandler(role: .client))
                        let handler = APNsClientHandler(
                            authority: host, status: status, pingInterval: pingInterval.map(TimeAmount.init), pingTimeout: TimeAmount(pingTimeout)
                        )
                        try pipeline.addHandler(handler)
                        return (channel, NIOLoopBound(handler, eventLoop: channel.eventLoop))
                    }
                }
            // Wait for the server's SETTINGS so the first requests respect its stream limit.
            let wait = TimeAmount(connectTimeout)
            try await channel.eventLoop.flatSubmit {
                channel.eventLoop.assumeIsolated().scheduleTask(in: wait) {
                    handler.value.settleReady(APNsClientError.connectionFailed("\(host):\(port): no HTTP/2 settings within the connect timeout"))
                }
                return handler.value.readyFuture!
            }
                .flatMapError { (error: any Error) -> EventLoopFuture<Void> in
                    channel.close(promise: nil)
                    var why = "closed before its HTTP/2 settings"
                    if case .connectionFailed(let inner) = error as? APNsClientError { why = inner }
                    return channel.eventLoop.makeFailedFuture(APNsClientError.connectionFailed("\(host):\(port): \(why)"))
                }
                .get()
            return APNsConnection(channel: channel, handler: handler, status: status)
        } catch let error as APNsClientError {
            throw error
        } catch {
            throw .connectionFailed("\(host):\(port): \(error)")
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
    /// the answer or the failure.
    func start(_ request: Request, timeout: Duration, completion: @escaping @Sendable (Result<Response, Failure>) -> Void) {
        let handler = self.handler
        let eventLoop = channel.eventLoop
        let amount = TimeAmount(timeout)
        let work: @Sendable () -> Void = {
            handler.value.send(request, timeout: amount, on: eventLoop).whenComplete { result in
                completion(result.mapError { ($0 as? Failure) ?? .lost("\($0)") })
            }
        }
        if eventLoop.inEventLoop { work() } else { eventLoop.execute(work) }
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
