import NIOCore
import NIOHPACK
import NIOHTTP2

/// One end of an HTTP/2 connection (RFC 9113) as a value: bytes from the peer in, frames for the
/// layer above out; frames from the layer above in, bytes for the peer out; a connection error
/// thrown when the peer breaks the protocol or a flood limit.
///
/// It keeps the connection's rules itself: the preface and SETTINGS exchange, HPACK in both
/// directions, CONTINUATION, stream states and limits, flow control both ways, PING and SETTINGS
/// acknowledgements, and the limits of ``HTTP2FramingConfiguration``. It does no I/O and holds
/// no channel, so it is tested frame by frame; ``HTTP2FramingHandler`` is the shell that moves
/// bytes, frames, timers and promises between it and a channel.
///
/// The layer above sees one frame per HEADERS block, DATA, RST_STREAM, SETTINGS, PING and
/// GOAWAY. A stream this side resets because of the peer (a stream error) is passed up as an
/// inbound RST_STREAM, so the layer above forgets it too.
struct HTTP2ConnectionStateMachine {
    /// Which end of the connection this is.
    typealias Role = HTTP2FramingHandler.Role

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
    private(set) var finished = false
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

    /// Frames made since the last ``takeOutbound()``, and the promises of those frames.
    var outbound: ByteBuffer
    var outboundPromises: [EventLoopPromise<Void>] = []
    /// Control frames this side made in answer to the peer (acknowledgements, resets, window
    /// updates) in ``outbound``, and those taken but not yet written to the socket.
    var controlFramesInOutbound = 0
    var controlFramesInFlight = 0

    // Flood limits (see ``HTTP2FramingConfiguration``).
    var resets: FrameBudgetCounter
    var controlFrames: FrameBudgetCounter
    var streamErrors: FrameBudgetCounter
    var sequentialEmptyFrames = 0
    var recentlyReset: RecentlyResetStreams

    init(role: Role, configuration: HTTP2FramingConfiguration) {
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

    /// Makes the preface (client) and this side's SETTINGS, and widens the connection window;
    /// once, when the connection is up.
    mutating func start() {
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
    }

    /// Adds bytes read from the peer; ``readNextFrame(into:)`` then takes them a frame at a time.
    mutating func receive(_ bytes: ByteBuffer) {
        decoder.append(bytes)
    }

    /// Reads the next complete frame the peer sent, if there is one: what the layer above must
    /// see of it goes to `delivered`, what this side answers goes to the outbound bytes. False
    /// when more bytes are needed (or the connection is finished).
    mutating func readNextFrame(into delivered: inout [HTTP2Frame]) throws(HTTP2ConnectionError) -> Bool {
        guard !finished else { return false }
        if !sawPreface {
            switch decoder.readPreface(Self.preface) {
            case nil: return false
            case false?: throw HTTP2ConnectionError(.protocolError, "the connection did not start with the HTTP/2 preface")
            case true?: sawPreface = true
            }
        }
        guard let (header, payload) = try decoder.nextFrame() else { return false }
        try process(header, payload: payload, into: &delivered)
        if controlFramesInOutbound + controlFramesInFlight > configuration.maxQueuedControlFrames {
            throw HTTP2ConnectionError(.enhanceYourCalm, "more than \(configuration.maxQueuedControlFrames) control frames wait to be written: the peer does not read")
        }
        return true
    }

    /// No SETTINGS came from the peer within ``HTTP2FramingConfiguration/settingsTimeout``.
    func settingsTimedOut() -> HTTP2ConnectionError? {
        guard !sawSettings, !finished, let timeout = configuration.settingsTimeout else { return nil }
        let what = role == .server ? "the client sent no preface and SETTINGS" : "the server sent no SETTINGS"
        return HTTP2ConnectionError(.settingsTimeout, "\(what) within \(timeout.nanoseconds / 1_000_000) ms of connecting")
    }

    /// A connection error: GOAWAY with its code and reason goes to the outbound bytes (the
    /// last ones), and the connection is finished.
    mutating func fail(_ error: HTTP2ConnectionError) {
        guard !finished else { return }
        // A GOAWAY already sent named the last stream processed; a later one may not raise it.
        encodeGoAway(lastStreamID: min(goAwaySent ?? highestPeerStreamID, highestPeerStreamID), code: error.code, debugData: Array(error.reason.utf8))
    }

    /// The bytes to write now, the promises to complete when they are written, and how many
    /// control frames they carry (counted as in flight until ``controlFramesWritten(_:)``).
    mutating func takeOutbound() -> (bytes: ByteBuffer?, promises: [EventLoopPromise<Void>], controlFrames: Int) {
        let controlFrames = controlFramesInOutbound
        controlFramesInFlight += controlFrames
        controlFramesInOutbound = 0
        let promises = outboundPromises
        outboundPromises.removeAll(keepingCapacity: true)
        guard outbound.readableBytes > 0 else { return (nil, promises, controlFrames) }
        let bytes = outbound
        outbound = allocator.buffer(capacity: max(1024, bytes.readableBytes))
        return (bytes, promises, controlFrames)
    }

    /// Control frames taken with ``takeOutbound()`` are written (or never will be).
    mutating func controlFramesWritten(_ count: Int) {
        controlFramesInFlight -= count
    }

    /// True if there is something to write.
    var hasOutbound: Bool { outbound.readableBytes > 0 || !outboundPromises.isEmpty || controlFramesInOutbound > 0 }

    /// Ends the connection: every frame not yet written, and every stream, fails.
    mutating func finish() {
        guard !finished else { return }
        finished = true
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

    /// True once this side opened the stream (its HEADERS went to the connection): a stream
    /// still waiting for room under the peer's limit was not. Streams are opened in order, so
    /// this is a comparison with the highest opened; a stream dropped while waiting counts as
    /// opened once a later one is (the layer above forgets dropped streams when it drops them).
    func hasOpened(_ streamID: HTTP2StreamID) -> Bool {
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
