/// The settings one side of a connection announces and enforces.
public struct HTTP2FramingConfiguration: Sendable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS: how many streams the peer may have open at once; a
    /// stream beyond it is refused (RST_STREAM REFUSED_STREAM). It can be changed later by
    /// writing a SETTINGS frame.
    public var maxConcurrentStreams: Int
    /// SETTINGS_MAX_HEADER_LIST_SIZE: the largest decoded header list accepted.
    public var maxHeaderListSize: Int
    /// The connection-level receive window this side grants (raised from 65,535 with a
    /// WINDOW_UPDATE at start, and topped up as data is read).
    public var connectionWindowSize: Int

    public init(maxConcurrentStreams: Int = 100, maxHeaderListSize: Int = 16 * 1024, connectionWindowSize: Int = 1 << 20) {
        self.maxConcurrentStreams = maxConcurrentStreams
        self.maxHeaderListSize = maxHeaderListSize
        self.connectionWindowSize = connectionWindowSize
    }
}
