import Foundation
import HeraldCore
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOSSL
import NIOTLS

/// Speaks APNs on one HTTP/2 connection, at the frame level: it gathers each stream's headers and
/// body, has ``RequestEvaluator`` answer them, and writes the answer (plus SETTINGS and GOAWAY)
/// itself. It sits on ``HTTP2FramingHandler``, which keeps HTTP/2's own rules (flow control,
/// stream limits, acknowledgements), so the cost per request stays low.
final class APNsConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// The largest body buffered for one stream; APNs' limit is 5120, so more is answered with
    /// `PayloadTooLarge` without waiting for the rest.
    static let maximumBufferedBody = 16 * 1024

    /// The most request bytes (header fields and bodies) held for streams still waiting for
    /// their END_STREAM, over the whole connection: a peer that opens every stream it may and
    /// never ends them cannot hold more. A stream that would go past it is reset with
    /// `ENHANCE_YOUR_CALM`; well-behaved clients finish each request in a read or two.
    static let maximumBufferedRequests = 1 << 20

    private struct PendingStream {
        var method = ""
        var path = ""
        var headers: [(name: String, value: String)] = []
        var authorization: String?
        var body: [UInt8] = []
        var answered = false
        /// Bytes this stream counts against ``maximumBufferedRequests``.
        var buffered = 0
    }

    private let evaluator: RequestEvaluator
    private let authentication: ConnectionAuthentication
    private let maxConcurrentStreams: Int
    private let idleTimeout: TimeAmount?
    private let onRequest: (@Sendable (SandboxRequestLog) -> Void)?
    /// Called once, when the connection's first request ends (the registry stops counting it
    /// among the connections that do nothing).
    private var onFirstRequest: (() -> Void)?
    private var streams: [HTTP2StreamID: PendingStream] = [:]
    /// The sum of the open streams' ``PendingStream/buffered``.
    private var bufferedBytes = 0
    /// Streams answered with added latency whose answer is not written yet.
    private var delayed: Set<HTTP2StreamID> = []
    private var needsFlush = false
    private var closing = false
    /// The highest stream the client opened; GOAWAY names it as the last one processed.
    private var highestStreamID = HTTP2StreamID.rootStream
    /// Set once GOAWAY is sent: streams up to it are still answered, later ones ignored.
    private var goAwayLastStreamID: HTTP2StreamID?
    private var graceTimer: Scheduled<Void>?
    private var idleTimer: Scheduled<Void>?

    init(
        evaluator: RequestEvaluator, authentication: ConnectionAuthentication, maxConcurrentStreams: Int,
        idleTimeout: TimeAmount?, onFirstRequest: (() -> Void)? = nil, onRequest: (@Sendable (SandboxRequestLog) -> Void)?
    ) {
        self.onFirstRequest = onFirstRequest
        self.evaluator = evaluator
        self.authentication = authentication
        self.maxConcurrentStreams = maxConcurrentStreams
        self.idleTimeout = idleTimeout
        self.onRequest = onRequest
    }

    func handlerAdded(context: ChannelHandlerContext) {
        resetIdleTimer(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleTimer?.cancel()
        graceTimer?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .headers(let headers):
            if streams[frame.streamID] == nil {
                // After GOAWAY, new streams are not processed (the client resends them elsewhere).
                if let last = goAwayLastStreamID, frame.streamID > last { break }
                highestStreamID = max(highestStreamID, frame.streamID)
                let block = RequestHeaderBlock(headers.headers)
                if block.malformation != nil {
                    // A malformed request is a stream error (RFC 9113 §8.1.1); the connection lives on.
                    context.write(wrapOutboundOut(HTTP2Frame(streamID: frame.streamID, payload: .rstStream(.protocolError))), promise: nil)
                    needsFlush = true
                    break
                }
                var stream = PendingStream(method: block.method, path: block.path, headers: block.fields, authorization: block.authorization)
                if !headers.endStream {
                    // Held until the body ends: counted against the connection's budget.
                    stream.buffered = headers.headers.reduce(32) { $0 + $1.name.utf8.count + $1.value.utf8.count }
                    guard hold(stream.buffered, on: frame.streamID, context: context) else { break }
                }
                streams[frame.streamID] = stream
            }
            if headers.endStream { finish(frame.streamID, context: context) }
        case .data(let data):
            guard case .byteBuffer(let buffer) = data.data else { break }
            // Read without copying the stream out (a copy would make each append copy the body).
            guard streams[frame.streamID]?.answered == false, let size = streams[frame.streamID]?.body.count else { break }
            if size + buffer.readableBytes > Self.maximumBufferedBody {
                streams[frame.streamID]!.body.append(contentsOf: buffer.readableBytesView.prefix(Self.maximumBufferedBody - size + 1))
                finish(frame.streamID, context: context)
                context.write(wrapOutboundOut(HTTP2Frame(streamID: frame.streamID, payload: .rstStream(.noError))), promise: nil)
                break
            }
            if !data.endStream {
                guard hold(buffer.readableBytes, on: frame.streamID, context: context) else { break }
                streams[frame.streamID]!.buffered += buffer.readableBytes
            }
            // Appended in place: the stream is not copied out of the dictionary.
            streams[frame.streamID]!.body.append(contentsOf: buffer.readableBytesView)
            if data.endStream { finish(frame.streamID, context: context) }
        case .rstStream:
            forget(frame.streamID)
        default:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A broken connection affects only itself.
        context.close(promise: nil)
    }

    /// Counts `count` more bytes held for an unfinished request; if the connection's budget is
    /// spent, the stream is reset instead and forgotten.
    private func hold(_ count: Int, on streamID: HTTP2StreamID, context: ChannelHandlerContext) -> Bool {
        guard bufferedBytes + count <= Self.maximumBufferedRequests else {
            forget(streamID)
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(.enhanceYourCalm))), promise: nil)
            needsFlush = true
            return false
        }
        bufferedBytes += count
        return true
    }

    /// Drops a stream and what it held.
    private func forget(_ streamID: HTTP2StreamID) {
        guard let stream = streams.removeValue(forKey: streamID) else { return }
        bufferedBytes -= stream.buffered
    }

    private func finish(_ streamID: HTTP2StreamID, context: ChannelHandlerContext) {
        guard !closing, var stream = streams[streamID], !stream.answered else { return }
        stream.answered = true
        forget(streamID)
        if let first = onFirstRequest {
            onFirstRequest = nil
            first()
        }
        resetIdleTimer(context: context)
        let request = SandboxRequest(method: stream.method, path: stream.path, headers: stream.headers, authorization: stream.authorization, body: stream.body)
        let response = evaluator.evaluate(request, connection: authentication)
        onRequest?(SandboxRequestLog(request: request, response: response))
        if response.delayMilliseconds > 0 {
            delayed.insert(streamID)
            context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(response.delayMilliseconds))) { [self] in
                delayed.remove(streamID)
                write(response, on: streamID, context: context)
                context.flush()
            }
        } else {
            write(response, on: streamID, context: context)
            needsFlush = true
        }
    }

    private func write(_ response: SandboxResponse, on streamID: HTTP2StreamID, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        var headers = HPACKHeaders()
        headers.reserveCapacity(4)
        headers.add(name: ":status", value: String(response.status))
        // Ids differ on every answer: indexing them would only churn the HPACK table.
        headers.add(name: HeaderName.id, value: response.apnsID, indexing: .nonIndexable)
        if let uniqueID = response.uniqueID { headers.add(name: HeaderName.uniqueID, value: uniqueID, indexing: .nonIndexable) }
        if response.body != nil { headers.add(name: "content-type", value: "application/json") }
        let endStream = response.body == nil
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: endStream)))), promise: nil)
        if let body = response.body {
            let buffer = context.channel.allocator.buffer(bytes: body)
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(buffer), endStream: true)))), promise: nil)
        }
        if response.unlockStreams {
            let settings = [HTTP2Setting(parameter: .maxConcurrentStreams, value: maxConcurrentStreams)]
            context.write(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings(settings)))), promise: nil)
        }
        if response.reset {
            closing = true
            context.flush()
            context.close(promise: nil)
        } else if let reason = response.goAway {
            goAway(reason, context: context)
        } else if goAwayLastStreamID != nil {
            closeIfDrained(context: context)
        }
    }

    /// Sends GOAWAY with the JSON reason APNs uses, naming the highest stream opened so far as the
    /// last one processed: those still waiting for their body are answered, later ones are not,
    /// and the connection closes once nothing is left, or after `grace` whatever it still waits
    /// for (a peer that does not read, a TLS handshake never finished). At shutdown while
    /// already going away, the shutdown's grace replaces the one running.
    func goAway(_ reason: APNsReason, grace: TimeAmount = goAwayGrace, context: ChannelHandlerContext) {
        guard !closing else { return }
        if goAwayLastStreamID != nil {
            guard reason == .shutdown else { return }
            graceTimer?.cancel()
            graceTimer = closeAfter(grace, context: context)
            return
        }
        goAwayLastStreamID = highestStreamID
        let body = context.channel.allocator.buffer(bytes: APNsErrorBody(reason: reason).serialized)
        let frame = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: highestStreamID, errorCode: .noError, opaqueData: body))
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
        graceTimer = closeAfter(grace, context: context)
        closeIfDrained(context: context)
    }

    private func closeAfter(_ grace: TimeAmount, context: ChannelHandlerContext) -> Scheduled<Void> {
        context.eventLoop.assumeIsolated().scheduleTask(in: grace) { [self] in
            closing = true
            context.close(promise: nil)
        }
    }

    /// How long streams named by a GOAWAY may take to finish before the connection closes anyway.
    static let goAwayGrace = TimeAmount.seconds(5)

    /// Closes a connection that said GOAWAY once every stream up to its last one is answered.
    private func closeIfDrained(context: ChannelHandlerContext) {
        guard let last = goAwayLastStreamID, !closing else { return }
        guard !streams.keys.contains(where: { $0 <= last }), !delayed.contains(where: { $0 <= last }) else { return }
        closing = true
        // A PING written behind the last answers completes once they are on the wire; then close.
        // The grace timer stays: a peer that does not read is closed when it runs out.
        context.writeAndFlush(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .ping(HTTP2PingData(), ack: false)))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event {
            adoptClientCertificate(context: context)
        } else if let shutdown = event as? SandboxShutdownEvent {
            goAway(.shutdown, grace: shutdown.grace, context: context)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// A connection that presented a client certificate uses certificate authentication: its
    /// identity is read once, and it gets all its streams at once (only token connections start
    /// with one).
    private func adoptClientCertificate(context: ChannelHandlerContext) {
        guard let certificate = try? context.pipeline.syncOperations.nioSSL_peerCertificate(),
            let der = try? certificate.toDERBytes()
        else { return }
        authentication.certificate = ClientCertificateIdentity(der: der, now: Date())
        authentication.unlocked = true
        let settings = [HTTP2Setting(parameter: .maxConcurrentStreams, value: maxConcurrentStreams)]
        context.writeAndFlush(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings(settings)))), promise: nil)
    }

    private func resetIdleTimer(context: ChannelHandlerContext) {
        guard let idleTimeout else { return }
        idleTimer?.cancel()
        idleTimer = context.eventLoop.assumeIsolated().scheduleTask(in: idleTimeout) { [self] in
            goAway(.idleTimeout, context: context)
        }
    }
}

/// Sent down every open APNs connection when the sandbox shuts down: GOAWAY `Shutdown`.
struct SandboxShutdownEvent: Sendable {
    /// How long the connection may take to finish what it has before it is closed anyway.
    var grace: TimeAmount
}
