import HeraldCore
import HeraldHTTP2
import NIOCore
import NIOHPACK
import NIOHTTP2

/// Runs a connection's requests at the frame level, below any stream channel: each request is
/// one stream, its answer runs a completion, and one sweep per connection bounds the waits. This
/// keeps the cost per notification to a few frames and one closure.
final class APNsClientHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    private struct Pending {
        var completion: Completion
        var response = APNsConnection.Response()
        /// When the request times out (checked by a sweep, not a timer per request).
        var deadline: NIODeadline
    }

    typealias Completion = (Result<APNsConnection.Response, APNsConnection.Failure>) -> Void

    /// The largest answer body kept: APNs answers with a few hundred bytes of JSON at most, so
    /// a longer body is a broken or hostile server; its stream is reset and the request fails.
    static let maximumResponseBody = 64 * 1024

    /// Stream ids end at 2^31 - 1; a connection that used them all is retired (its requests
    /// go to another connection).
    static let lastStreamID = Int(Int32.max) - 2

    private let authority: String
    private let status: ConnectionStatus
    /// The framing layer below: it knows whether a stream has been opened (sent) yet.
    private let framing: HTTP2FramingHandler
    private var context: ChannelHandlerContext?
    private var nextStreamID = 1
    private var pending: [HTTP2StreamID: Pending] = [:]
    private var closed = false
    /// Why the connection broke, when the layers below said (a protocol error, TLS): requests
    /// that lose their answer say this instead of just "closed".
    private var brokenBecause: String?
    private var goAwayLastStreamID: HTTP2StreamID?
    private var flushScheduled = false
    /// The next timeout sweep, and when it runs.
    private var sweep: (task: Scheduled<Void>, at: NIODeadline)?
    /// Completed by the server's first SETTINGS: until then the client does not know the
    /// server's stream limit (APNs starts token connections at one), so nothing is sent.
    private var ready: EventLoopPromise<Void>?
    /// Succeeds when the server's first SETTINGS arrive.
    private(set) var readyFuture: EventLoopFuture<Void>?

    /// Liveness: a PING after `pingInterval` without any frame, the connection closed if its
    /// ACK does not come within `pingTimeout`.
    private let pingInterval: TimeAmount?
    private let pingTimeout: TimeAmount
    private var sawFrame = false
    private var pingTimer: Scheduled<Void>?
    private var pingDeadline: Scheduled<Void>?

    init(
        authority: String, status: ConnectionStatus, framing: HTTP2FramingHandler, pingInterval: TimeAmount? = nil,
        pingTimeout: TimeAmount = .seconds(10)
    ) {
        self.authority = authority
        self.status = status
        self.framing = framing
        self.pingInterval = pingInterval
        self.pingTimeout = pingTimeout
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        sweep?.task.cancel()
        sweep = nil
        pingTimer?.cancel()
        pingDeadline?.cancel()
        settleReady(APNsClientError.connectionFailed("the connection closed before its HTTP/2 settings"))
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        startPinging(context: context)
        context.fireChannelActive()
    }

    private func startPinging(context: ChannelHandlerContext) {
        guard pingInterval != nil, pingTimer == nil else { return }
        schedulePingCheck(context: context)
    }

    /// Every interval: if no frame came since the last check, PING and wait for the ACK.
    private func schedulePingCheck(context: ChannelHandlerContext) {
        guard let pingInterval, !closed else { return }
        pingTimer = context.eventLoop.assumeIsolated().scheduleTask(in: pingInterval) { [self] in
            defer {
                sawFrame = false
                schedulePingCheck(context: context)
            }
            guard !sawFrame, pingDeadline == nil, !closed else { return }
            context.writeAndFlush(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .ping(HTTP2PingData(withInteger: 0x4845_5241_4C44), ack: false))), promise: nil)
            pingDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: pingTimeout) { [self] in
                // No answer: the connection is dead (half-open); close it so the pool replaces it.
                pingDeadline = nil
                context.close(promise: nil)
            }
        }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { startPinging(context: context) }
        let promise = context.eventLoop.makePromise(of: Void.self)
        ready = promise
        readyFuture = promise.futureResult
    }

    /// Sends a request on a new stream; the future fails with ``APNsConnection/Failure``.
    func send(_ request: APNsConnection.Request, timeout: TimeAmount, on eventLoop: any EventLoop) -> EventLoopFuture<APNsConnection.Response> {
        let promise = eventLoop.makePromise(of: APNsConnection.Response.self)
        start(request, timeout: timeout) { promise.completeWith($0.mapError { $0 }) }
        return promise.futureResult
    }

    /// Sends a request on a new stream; `completion` runs on the event loop with the answer or
    /// the failure.
    func start(_ request: APNsConnection.Request, timeout: TimeAmount, completion: @escaping Completion) {
        guard let context, !closed, goAwayLastStreamID == nil, nextStreamID < Self.lastStreamID else {
            if nextStreamID >= Self.lastStreamID { status.update { $0.closed = true } }
            completion(.failure(.notProcessed(brokenBecause)))
            return
        }
        let streamID = HTTP2StreamID(nextStreamID)
        nextStreamID += 2
        var fields = HPACKHeaders()
        fields.reserveCapacity(request.headers.count + 4)
        fields.add(name: ":method", value: "POST")
        fields.add(name: ":scheme", value: "https")
        // Each device has its own path: indexing it would only churn the HPACK table.
        fields.add(name: ":path", value: request.path, indexing: .nonIndexable)
        fields.add(name: ":authority", value: authority)
        // Indexed, the provider token (the same for up to an hour) goes over the connection once
        // and is referenced afterwards: fewer bytes, and no Huffman coding per request at either end.
        // Fields that change from one notification to the next are not indexed: they would push
        // the token out of the table.
        for (name, value) in request.headers {
            let varies = name == HeaderName.id || name == HeaderName.expiration || name == HeaderName.collapseID
            fields.add(name: name, value: value, indexing: varies ? .nonIndexable : .indexable)
        }
        let deadline = context.eventLoop.now + timeout
        pending[streamID] = Pending(completion: completion, deadline: deadline)
        scheduleSweep(before: deadline, timeout: timeout, context: context)
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: fields, endStream: request.body.isEmpty)))), promise: nil)
        if !request.body.isEmpty {
            let buffer = context.channel.allocator.buffer(bytes: request.body)
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(buffer), endStream: true)))), promise: nil)
        }
        scheduleFlush(context: context)
    }

    /// Timeouts are found by a sweep over the pending requests, run a little after the earliest
    /// deadline could pass (a tenth of the timeout, 2 ms to 250 ms): one timer per connection
    /// instead of one per request.
    private func scheduleSweep(before deadline: NIODeadline, timeout: TimeAmount, context: ChannelHandlerContext) {
        let slack = TimeAmount.nanoseconds(min(max(timeout.nanoseconds / 10, 2_000_000), 250_000_000))
        if let sweep, sweep.at <= deadline + slack { return }
        sweep?.task.cancel()
        let at = deadline + slack
        let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: at) { [self] in
            sweep = nil
            expireRequests(context: context)
        }
        sweep = (task, at)
    }

    private func expireRequests(context: ChannelHandlerContext) {
        let now = context.eventLoop.now
        var earliest: NIODeadline?
        var expired: [HTTP2StreamID] = []
        for (streamID, entry) in pending {
            if entry.deadline <= now {
                expired.append(streamID)
            } else {
                earliest = min(earliest ?? entry.deadline, entry.deadline)
            }
        }
        // Requests still waiting to open go first: resetting an open stream frees a slot, and
        // an expired request waiting for it must not be sent then.
        let ordered = expired.map { (streamID: $0, sent: framing.hasOpened($0)) }.sorted { !$0.sent && $1.sent }
        for (streamID, sent) in ordered {
            guard let entry = pending.removeValue(forKey: streamID) else { continue }
            // A request still waiting to open never reached the server: the RST_STREAM below
            // drops it in the framing layer. It waited its whole timeout for a stream the server
            // would not give: an attempt, with the reason.
            entry.completion(.failure(sent ? .timeout : .notOpened(streamLimitExplanation())))
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(.cancel))), promise: nil)
            scheduleFlush(context: context)
        }
        closeIfDrainedAfterGoAway()
        if let earliest, !closed { scheduleSweep(before: earliest, timeout: .milliseconds(20), context: context) }
    }

    /// Why a request never got a stream on this connection.
    private func streamLimitExplanation() -> String {
        let limit = status.snapshot.maxConcurrentStreams.map { "its SETTINGS_MAX_CONCURRENT_STREAMS is \($0)" } ?? "it announced no stream limit"
        return "\(authority): the server gave this request no stream within its timeout (\(limit), \(pending.count) other request(s) waiting)"
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        sawFrame = true
        switch frame.payload {
        case .ping(_, ack: true):
            pingDeadline?.cancel()
            pingDeadline = nil
        case .headers(let headers):
            guard var entry = pending[frame.streamID] else { return }
            for (name, value, _) in headers.headers {
                switch name {
                case ":status": entry.response.status = Int(value) ?? 0
                case HeaderName.id: entry.response.apnsID = value
                case HeaderName.uniqueID: entry.response.uniqueID = value
                default: break
                }
            }
            pending[frame.streamID] = entry
            if headers.endStream { complete(frame.streamID) }
        case .data(let data):
            guard case .byteBuffer(let buffer) = data.data, let size = pending[frame.streamID]?.response.body.count else { return }
            guard size + buffer.readableBytes <= Self.maximumResponseBody else {
                fail(frame.streamID, with: .lost("the server's answer is longer than \(Self.maximumResponseBody) bytes (APNs answers with a few hundred)"))
                context.write(wrapOutboundOut(HTTP2Frame(streamID: frame.streamID, payload: .rstStream(.cancel))), promise: nil)
                scheduleFlush(context: context)
                return
            }
            // Appended in place: the entry is not copied out of the dictionary.
            pending[frame.streamID]!.response.body.append(contentsOf: buffer.readableBytesView)
            if data.endStream { complete(frame.streamID) }
        case .rstStream(let code):
            fail(frame.streamID, with: code == .refusedStream ? .notProcessed(nil) : .lost("stream reset by the server (\(code))"))
        case .goAway(let lastStreamID, _, let opaqueData):
            goAwayLastStreamID = lastStreamID
            let reason = opaqueData.flatMap { APNsErrorBody(bytes: $0.readableBytesView)?.reason.rawValue }
            status.update {
                $0.goAwayLastStreamID = Int(lastStreamID)
                $0.goAwayReason = reason
            }
            // Streams above the last one were never processed: resend them elsewhere.
            for streamID in pending.keys where streamID > lastStreamID { fail(streamID, with: .notProcessed(reason.map { "GOAWAY \($0)" })) }
            closeIfDrainedAfterGoAway()
        case .settings(.settings(let settings)):
            for setting in settings where setting.parameter == .maxConcurrentStreams {
                status.update { $0.maxConcurrentStreams = setting.value }
            }
            settleReady(nil)
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        settleReady(APNsConnection.Failure.lost("the connection closed before the server's settings"))
        status.update { $0.closed = true }
        let last = goAwayLastStreamID
        for streamID in Array(pending.keys) {
            if let last, streamID > last {
                fail(streamID, with: .notProcessed(brokenBecause))
            } else if !framing.hasOpened(streamID) {
                // Still waiting under the server's stream limit: it never left this side.
                fail(streamID, with: .notProcessed(brokenBecause))
            } else {
                fail(streamID, with: .lost(brokenBecause.map { "the connection closed: \($0)" } ?? "the connection closed"))
            }
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A broken connection (TLS refused, garbage): say why to whoever waits for it to be
        // ready, then close it, which fails what is pending.
        let clientError = TransportErrorText.clientError(error)
        let why: String
        switch clientError {
        case .connectionFailed(let text), .certificateRejected(let text): why = text
        default: why = clientError.description
        }
        if brokenBecause == nil {
            brokenBecause = why
            status.update { $0.brokenBecause = why }
        }
        settleReady(clientError)
        context.close(promise: nil)
    }

    /// Completes ``ready`` once: with success, or with `error` (closed, or too slow).
    func settleReady(_ error: (any Error)?) {
        guard let ready else { return }
        self.ready = nil
        if let error { ready.fail(error) } else { ready.succeed() }
    }

    /// One flush for all the requests submitted in this turn of the event loop: a burst of
    /// sends then costs one TLS record and one write, not one each.
    private func scheduleFlush(context: ChannelHandlerContext) {
        guard !flushScheduled else { return }
        flushScheduled = true
        context.eventLoop.assumeIsolated().execute { [self] in
            flushScheduled = false
            context.flush()
        }
    }

    private func complete(_ streamID: HTTP2StreamID) {
        guard let entry = pending.removeValue(forKey: streamID) else { return }
        status.noteAnswer()
        entry.completion(.success(entry.response))
        closeIfDrainedAfterGoAway()
    }

    private func fail(_ streamID: HTTP2StreamID, with failure: APNsConnection.Failure) {
        guard let entry = pending.removeValue(forKey: streamID) else { return }
        entry.completion(.failure(failure))
        closeIfDrainedAfterGoAway()
    }

    /// A connection that got GOAWAY is closed by this side once its last answers are in.
    private func closeIfDrainedAfterGoAway() {
        guard goAwayLastStreamID != nil, pending.isEmpty, !closed, let context else { return }
        context.close(promise: nil)
    }
}
