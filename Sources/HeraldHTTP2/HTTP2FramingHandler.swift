import NIOCore
import NIOHPACK
import NIOHTTP2

/// HTTP/2 on one connection, at the frame level (RFC 9113): it turns bytes into `HTTP2Frame`s
/// and `HTTP2Frame`s into bytes, and keeps the connection's rules itself — the preface and
/// SETTINGS exchange, HPACK in both directions, CONTINUATION, stream states and limits, flow
/// control both ways, PING and SETTINGS acknowledgements, and GOAWAY on a protocol error.
///
/// The handler above it sees one inbound frame per HEADERS block, DATA, RST_STREAM, SETTINGS,
/// PING or GOAWAY, and writes HEADERS, DATA, RST_STREAM, SETTINGS, PING and GOAWAY frames; it
/// never deals with flow control or acknowledgements. A stream the handler itself resets (a
/// stream error) is reported upwards as an inbound RST_STREAM, so the layer above forgets it.
///
/// It does the work of `NIOHTTP2Handler` for a connection that runs one request per stream
/// with no stream channels, in a fraction of the time: one dictionary entry per open stream,
/// and all frames written between two flushes go out as one buffer.
public final class HTTP2FramingHandler: ChannelDuplexHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = HTTP2Frame
    public typealias OutboundIn = HTTP2Frame
    public typealias OutboundOut = ByteBuffer

    /// Which end of the connection this is.
    public enum Role: Sendable {
        case client
        case server
    }

    /// A stream the client opened while the server's limit was reached: its frames wait.
    struct PendingOpen {
        var streamID: HTTP2StreamID
        var frames: [(frame: HTTP2Frame, promise: EventLoopPromise<Void>?)]
    }

    /// A header block still waiting for its CONTINUATION frames.
    struct PartialHeaderBlock {
        var streamID: HTTP2StreamID
        var endStream: Bool
        var block: ByteBuffer
        /// CONTINUATION frames read for it so far.
        var continuations = 0
    }

    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    static let defaultWindow = 65_535
    static let maxWindow = Int(Int32.max)

    let role: Role
    let configuration: HTTP2FramingConfiguration
    let allocator = ByteBufferAllocator()
    var decoder = FrameDecoder()
    var hpackDecoder: HPACKDecoder
    var headerEncoder = HeaderBlockEncoder()

    var started = false
    var sawPreface: Bool
    var sawSettings = false
    /// Set when the connection failed or closed: nothing more is read or written.
    var finished = false
    var partialHeaderBlock: PartialHeaderBlock?

    var streams: [HTTP2StreamID: HTTP2StreamState] = [:]
    var peerOpenCount = 0
    var localOpenCount = 0
    var highestPeerStreamID = HTTP2StreamID.rootStream
    var highestLocalStreamID = HTTP2StreamID.rootStream
    /// The stream limit enforced on the peer: the stricter of the last acknowledged limit and
    /// every limit sent since, so a peer that never acknowledges still gets no more than it
    /// was told (as nghttp2 and Go do).
    var localMaxConcurrentStreams: Int
    /// The limit the peer acknowledged last (none yet: unlimited, RFC 9113 §6.5.2).
    var acknowledgedStreamLimit = Int.max
    /// For each SETTINGS sent and not yet acknowledged, the stream limit it set, if any.
    var unacknowledgedStreamLimits: [Int?] = []
    var peerMaxConcurrentStreams = Int.max
    var peerInitialWindow = defaultWindow
    /// No open stream's ``HTTP2StreamState/sendWindowOffset`` is above this (an upper bound,
    /// made exact when a new initial window size would seem to overflow one).
    var maxSendWindowOffset = 0
    var peerMaxFrameSize = 16_384
    var connectionSendWindow = defaultWindow
    var connectionReceiveWindow = defaultWindow
    var connectionReceiveUnacknowledged = 0
    /// Streams with DATA waiting for window, in the order they blocked.
    var blockedStreams: [HTTP2StreamID] = []
    var pendingOpens: [PendingOpen] = []
    var goAwayReceived: HTTP2StreamID?
    var goAwaySent: HTTP2StreamID?

    /// Frames written since the last flush, and the promises of those frames.
    var outbound: ByteBuffer
    var outboundPromises: [EventLoopPromise<Void>] = []
    /// Control frames this side made in answer to the peer (acknowledgements, resets, window
    /// updates) in ``outbound``, and those flushed but not yet written to the socket.
    var controlFramesInOutbound = 0
    var controlFramesInFlight = 0

    // Flood limits (see ``HTTP2FramingConfiguration``).
    var resets: FrameBudgetCounter
    var controlFrames: FrameBudgetCounter
    var streamErrors: FrameBudgetCounter
    var sequentialEmptyFrames = 0
    var recentlyReset: RecentlyResetStreams
    /// A server stops reading while its answers cannot be written (the peer does not read):
    /// set when a read was held back for that reason.
    var readHeld = false
    var settingsTimer: Scheduled<Void>?

    /// Creates the handler for one end of a connection.
    public init(role: Role, configuration: HTTP2FramingConfiguration = HTTP2FramingConfiguration()) {
        self.role = role
        self.configuration = configuration
        self.localMaxConcurrentStreams = configuration.maxConcurrentStreams
        self.resets = FrameBudgetCounter(configuration.resetBudget)
        self.controlFrames = FrameBudgetCounter(configuration.controlFrameBudget)
        self.streamErrors = FrameBudgetCounter(configuration.streamErrorBudget)
        self.recentlyReset = RecentlyResetStreams(capacity: configuration.recentlyResetStreams)
        self.sawPreface = role == .client
        self.hpackDecoder = HPACKDecoder(
            allocator: allocator, maxDynamicTableSize: HPACKDecoder.maxDynamicTableSize, maxHeaderListSize: configuration.maxHeaderListSize
        )
        self.outbound = allocator.buffer(capacity: 1024)
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    public func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    /// Sends the preface (client) and this side's SETTINGS, and widens the connection window.
    private func start(context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        if role == .client { outbound.writeBytes(Self.preface) }
        var settings: [(UInt16, Int)] = [(3, configuration.maxConcurrentStreams), (6, configuration.maxHeaderListSize)]
        if role == .client { settings.insert((2, 0), at: 0) }
        outbound.writeFrameHeader(length: settings.count * 6, type: FrameType.settings, streamID: .rootStream)
        for (code, value) in settings {
            outbound.writeInteger(code)
            outbound.writeInteger(UInt32(value))
        }
        unacknowledgedStreamLimits.append(configuration.maxConcurrentStreams)
        if configuration.connectionWindowSize > Self.defaultWindow {
            encodeWindowUpdate(streamID: .rootStream, increment: configuration.connectionWindowSize - Self.defaultWindow)
            connectionReceiveWindow = configuration.connectionWindowSize
        }
        if let timeout = configuration.settingsTimeout {
            settingsTimer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
                guard !sawSettings else { return }
                let what = role == .server ? "the client sent no preface and SETTINGS" : "the server sent no SETTINGS"
                fail(HTTP2ConnectionError(.settingsTimeout, "\(what) within \(timeout.nanoseconds / 1_000_000) ms of connecting"), context: context)
            }
        }
        flushOutbound(context: context)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !finished else { return }
        decoder.append(unwrapInboundIn(data))
        if !sawPreface {
            switch decoder.readPreface(Self.preface) {
            case nil: return
            case false?:
                fail(HTTP2ConnectionError(.protocolError, "the connection did not start with the HTTP/2 preface"), context: context)
                return
            case true?: sawPreface = true
            }
        }
        do throws(HTTP2ConnectionError) {
            while !finished, let (header, payload) = try decoder.nextFrame() {
                try process(header, payload: payload, context: context)
                if controlFramesInOutbound + controlFramesInFlight > configuration.maxQueuedControlFrames {
                    throw HTTP2ConnectionError(
                        .enhanceYourCalm, "more than \(configuration.maxQueuedControlFrames) control frames wait to be written: the peer does not read"
                    )
                }
            }
        } catch {
            fail(error, context: context)
        }
    }

    public func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        // Acknowledgements, window updates and resets made while reading, if the layer above
        // did not flush them with its own answers.
        if outbound.readableBytes > 0 || !outboundPromises.isEmpty { flushOutbound(context: context) }
    }

    public func flush(context: ChannelHandlerContext) {
        flushOutbound(context: context)
    }

    /// A server holds back reads while the channel is not writable: what it reads makes answers,
    /// and answers the peer does not read would otherwise pile up without bound. A client does
    /// not (its callers bound what it writes, and it must keep reading answers to make room).
    public func read(context: ChannelHandlerContext) {
        if role == .server, !context.channel.isWritable {
            readHeld = true
        } else {
            context.read()
        }
    }

    public func channelWritabilityChanged(context: ChannelHandlerContext) {
        if readHeld, context.channel.isWritable {
            readHeld = false
            context.read()
        }
        context.fireChannelWritabilityChanged()
    }

    /// Writes every frame made since the last flush as one buffer, completing their promises
    /// when it is written.
    func flushOutbound(context: ChannelHandlerContext) {
        if controlFramesInOutbound > 0 {
            // Counted until written: a peer that does not read cannot make them pile up.
            let count = controlFramesInOutbound
            controlFramesInOutbound = 0
            controlFramesInFlight += count
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenComplete { [self] _ in controlFramesInFlight -= count }
            outboundPromises.append(written)
        }
        if outbound.readableBytes > 0 {
            let bytes = outbound
            outbound = allocator.buffer(capacity: max(1024, bytes.readableBytes))
            let promise: EventLoopPromise<Void>?
            switch outboundPromises.count {
            case 0: promise = nil
            case 1: promise = outboundPromises[0]
            default:
                let all = outboundPromises
                let combined = context.eventLoop.makePromise(of: Void.self)
                combined.futureResult.whenComplete { result in
                    for each in all { each.completeWith(result) }
                }
                promise = combined
            }
            outboundPromises.removeAll(keepingCapacity: true)
            context.write(wrapOutboundOut(bytes), promise: promise)
        } else {
            for promise in outboundPromises { promise.succeed() }
            outboundPromises.removeAll(keepingCapacity: true)
        }
        context.flush()
    }

    public func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        finish()
    }

    /// Ends the connection for this layer: every frame not yet written fails.
    private func finish() {
        finished = true
        settingsTimer?.cancel()
        settingsTimer = nil
        let failure = HTTP2WriteError.connectionClosed
        for promise in outboundPromises { promise.fail(failure) }
        outboundPromises.removeAll()
        for (_, state) in streams {
            for data in state.queued { data.promise?.fail(failure) }
        }
        streams.removeAll()
        for open in pendingOpens {
            for entry in open.frames { entry.promise?.fail(failure) }
        }
        pendingOpens.removeAll()
    }

    /// A connection error: GOAWAY with its code, then close; the layer above hears why.
    func fail(_ error: HTTP2ConnectionError, context: ChannelHandlerContext) {
        guard !finished else { return }
        encodeGoAway(lastStreamID: highestPeerStreamID, code: error.code, debugData: Array(error.reason.utf8))
        flushOutbound(context: context)
        finish()
        context.fireErrorCaught(error)
        context.close(promise: nil)
    }

    /// True once this side opened the stream (its HEADERS went to the connection): a stream
    /// still waiting for room under the peer's limit was not. Streams are opened in order, so
    /// this is a comparison with the highest opened; a stream dropped while waiting counts as
    /// opened once a later one is (the layer above forgets dropped streams when it drops them).
    public func hasOpened(_ streamID: HTTP2StreamID) -> Bool {
        !isPeerInitiated(streamID) && streamID <= highestLocalStreamID
    }

    /// True if the peer opens streams with this id (odd ids are the client's).
    func isPeerInitiated(_ streamID: HTTP2StreamID) -> Bool {
        (Int32(streamID) % 2 == 1) == (role == .server)
    }

    /// True if no stream with this id was ever opened (nor a later one by the same side).
    func isIdle(_ streamID: HTTP2StreamID) -> Bool {
        isPeerInitiated(streamID) ? streamID > highestPeerStreamID : streamID > highestLocalStreamID
    }
}
