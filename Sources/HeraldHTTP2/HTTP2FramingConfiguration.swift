import NIOCore

/// The settings one side of a connection announces and enforces, and the limits that keep a
/// hostile or broken peer from using more memory or CPU than a well-behaved one.
///
/// Every limit has a safe default: the defaults never stop a peer that follows RFC 9113 and
/// sends requests or answers, and they end a flood within a bounded number of frames. A limit
/// that is broken ends the connection with GOAWAY `ENHANCE_YOUR_CALM` (or the RFC's own code)
/// and a reason in the debug data.
package struct HTTP2FramingConfiguration: Sendable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS: how many streams the peer may have open at once; a
    /// stream beyond it is refused (RST_STREAM REFUSED_STREAM). It holds from the first SETTINGS
    /// sent, before the peer acknowledges it. It can be changed later by writing a SETTINGS
    /// frame: a lower limit holds at once, a higher one once the peer acknowledges it.
    package var maxConcurrentStreams: Int
    /// SETTINGS_MAX_HEADER_LIST_SIZE: the largest decoded header list accepted.
    package var maxHeaderListSize: Int
    /// The connection-level receive window this side grants (raised from 65,535 with a
    /// WINDOW_UPDATE at start, and topped up as data is read).
    package var connectionWindowSize: Int
    /// The longest the peer may take to send its first SETTINGS frame (and, for a server, its
    /// preface) once the TCP connection is up; this includes the TLS handshake when TLS runs
    /// below. `nil`: no limit.
    package var settingsTimeout: TimeAmount?
    /// Control frames (SETTINGS and PING acknowledgements, RST_STREAM, WINDOW_UPDATE) that may
    /// wait to be written while the peer does not read; beyond, GOAWAY `ENHANCE_YOUR_CALM`.
    package var maxQueuedControlFrames: Int
    /// DATA frames with no payload and no END_STREAM, and CONTINUATION frames with no payload,
    /// accepted in a row; a frame that carries something starts the count again.
    package var maxSequentialEmptyFrames: Int
    /// CONTINUATION frames one header block may span.
    package var maxContinuationFrames: Int
    /// The largest header block, across its CONTINUATION frames, before it is decoded.
    package var maxHeaderBlockSize: Int
    /// RST_STREAM frames the peer may send per window (rapid reset, CVE-2023-44487).
    package var resetBudget: FrameBudget
    /// SETTINGS, PING and PRIORITY frames the peer may send per window.
    package var controlFrameBudget: FrameBudget
    /// Streams this side may have to reset because of the peer (malformed, refused beyond the
    /// stream limit, flow-control errors) per window.
    package var streamErrorBudget: FrameBudget
    /// Streams this side reset whose late frames are still recognised and ignored; frames on
    /// other closed streams are errors (RFC 9113 §5.1).
    package var recentlyResetStreams: Int

    package init(
        maxConcurrentStreams: Int = 100,
        maxHeaderListSize: Int = 16 * 1024,
        connectionWindowSize: Int = 1 << 20,
        settingsTimeout: TimeAmount? = .seconds(10),
        maxQueuedControlFrames: Int = 10_000,
        maxSequentialEmptyFrames: Int = 8,
        maxContinuationFrames: Int = 16,
        maxHeaderBlockSize: Int = 64 * 1024,
        resetBudget: FrameBudget = FrameBudget(count: 1_000, per: .seconds(10)),
        controlFrameBudget: FrameBudget = FrameBudget(count: 500, per: .seconds(10)),
        streamErrorBudget: FrameBudget = FrameBudget(count: 500, per: .seconds(10)),
        recentlyResetStreams: Int = 128
    ) {
        self.maxConcurrentStreams = maxConcurrentStreams
        self.maxHeaderListSize = maxHeaderListSize
        self.connectionWindowSize = connectionWindowSize
        self.settingsTimeout = settingsTimeout
        self.maxQueuedControlFrames = maxQueuedControlFrames
        self.maxSequentialEmptyFrames = maxSequentialEmptyFrames
        self.maxContinuationFrames = maxContinuationFrames
        self.maxHeaderBlockSize = maxHeaderBlockSize
        self.resetBudget = resetBudget
        self.controlFrameBudget = controlFrameBudget
        self.streamErrorBudget = streamErrorBudget
        self.recentlyResetStreams = recentlyResetStreams
    }
}

/// How many events of one kind a peer may cause within a window of time.
package struct FrameBudget: Sendable, Hashable {
    /// Events allowed per window.
    package var count: Int
    /// The window's length.
    package var window: TimeAmount

    package init(count: Int, per window: TimeAmount) {
        self.count = count
        self.window = window
    }
}
