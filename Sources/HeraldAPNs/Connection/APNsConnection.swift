import Foundation
import HeraldCore
import NIOCore
import NIOHPACK
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
    private let multiplexer: NIOHTTP2Handler.AsyncStreamMultiplexer<Void>
    private let authority: String
    private let inFlightCount = Atomic<Int>(0)

    private init(channel: any Channel, multiplexer: NIOHTTP2Handler.AsyncStreamMultiplexer<Void>, status: ConnectionStatus, authority: String) {
        self.channel = channel
        self.multiplexer = multiplexer
        self.status = status
        self.authority = authority
    }

    /// Requests in flight on this connection.
    var inFlight: Int { inFlightCount.load(ordering: .relaxed) }

    /// False once the connection is closed or the server said GOAWAY.
    var isUsable: Bool {
        let snapshot = status.snapshot
        return channel.isActive && snapshot.goAwayLastStreamID == nil && !snapshot.closed
    }

    /// Connects, negotiates TLS and ALPN h2 (or HTTP/2 with prior knowledge in cleartext).
    static func connect(
        host: String, port: Int, tlsContext: NIOSSLContext?, connectTimeout: Duration, group: any EventLoopGroup
    ) async throws(APNsClientError) -> APNsConnection {
        let status = ConnectionStatus()
        let serverHostname = host.isIPAddress ? nil : host
        do {
            let (channel, multiplexer) = try await ClientBootstrap(group: group)
                .connectTimeout(.nanoseconds(Int64(connectTimeout.components.seconds) * 1_000_000_000 + connectTimeout.components.attoseconds / 1_000_000_000))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        if let tlsContext {
                            try pipeline.addHandler(try NIOSSLClientHandler(context: tlsContext, serverHostname: serverHostname))
                        }
                        let multiplexer = try pipeline.configureAsyncHTTP2Pipeline(
                            mode: .client,
                            configuration: .init(connection: .init(), stream: .init())
                        ) { stream in
                            // APNs never opens streams; refuse any that appear.
                            stream.close()
                        }
                        try pipeline.addHandler(ConnectionObserver(status: status))
                        return (channel, multiplexer)
                    }
                }
            return APNsConnection(channel: channel, multiplexer: multiplexer, status: status, authority: host)
        } catch {
            throw .connectionFailed("\(host):\(port): \(error)")
        }
    }

    /// Sends one request on a new stream and waits (at most `timeout`) for its answer.
    func send(_ request: Request, timeout: Duration) async throws(Failure) -> Response {
        inFlightCount.add(1, ordering: .relaxed)
        defer { inFlightCount.subtract(1, ordering: .relaxed) }
        let stream: NIOAsyncChannel<HTTP2Frame.FramePayload, HTTP2Frame.FramePayload>
        do {
            stream = try await multiplexer.openStream { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<HTTP2Frame.FramePayload, HTTP2Frame.FramePayload>(wrappingChannelSynchronously: channel)
                }
            }
        } catch {
            throw classify(error, streamID: nil)
        }
        let streamChannel = stream.channel
        let authority = self.authority
        do {
            return try await withThrowingTaskGroup(of: Response.self) { group in
                group.addTask {
                    try await stream.executeThenClose { inbound, outbound in
                        var fields = HPACKHeaders([(":method", "POST"), (":scheme", "https"), (":path", request.path), (":authority", authority)])
                        for (name, value) in request.headers { fields.add(name: name, value: value) }
                        try await outbound.write(.headers(.init(headers: fields, endStream: request.body.isEmpty)))
                        if !request.body.isEmpty {
                            try await outbound.write(.data(.init(data: .byteBuffer(ByteBuffer(bytes: request.body)), endStream: true)))
                        }
                        var response = Response(status: 0, headers: [:], body: [])
                        for try await payload in inbound {
                            switch payload {
                            case .headers(let headers):
                                for (name, value, _) in headers.headers {
                                    if name == ":status" { response.status = Int(value) ?? 0 } else { response.headers[name] = value }
                                }
                                if headers.endStream { return response }
                            case .data(let data):
                                if case .byteBuffer(let buffer) = data.data { response.body += buffer.readableBytesView }
                                if data.endStream { return response }
                            case .rstStream(let code):
                                throw StreamReset(code: code)
                            default:
                                break
                            }
                        }
                        throw StreamReset(code: .cancel)
                    }
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    // Resets the stream, which also ends the reader above: the group cannot
                    // return before every child has, so waiting on cancellation alone is not enough.
                    streamChannel.close(promise: nil)
                    throw Failure.timeout
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            let streamID = try? await streamChannel.getOption(HTTP2StreamChannelOptions.streamID).get()
            throw classify(error, streamID: streamID)
        }
    }

    /// Closes the connection; streams in flight fail.
    func close() {
        channel.close(promise: nil)
    }

    private struct StreamReset: Error {
        let code: HTTP2ErrorCode
    }

    /// A stream the server refused, or one above its GOAWAY's last stream, was never processed.
    private func classify(_ error: any Error, streamID: HTTP2StreamID?) -> Failure {
        if let reset = error as? StreamReset, reset.code == .refusedStream { return .notProcessed }
        if let closed = error as? NIOHTTP2Errors.StreamClosed, closed.errorCode == .refusedStream { return .notProcessed }
        let snapshot = status.snapshot
        if let last = snapshot.goAwayLastStreamID {
            guard let streamID else { return .notProcessed }
            if Int(streamID) > last { return .notProcessed }
        }
        if let reset = error as? StreamReset { return .lost("stream reset (\(reset.code))") }
        return .lost("\(error)")
    }
}

extension String {
    /// True for an IPv4 or IPv6 literal (no SNI is sent for those).
    var isIPAddress: Bool {
        (try? SocketAddress(ipAddress: self, port: 0)) != nil
    }
}
