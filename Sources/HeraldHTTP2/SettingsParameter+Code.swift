import NIOHTTP2

extension HTTP2SettingsParameter {
    /// The parameters defined by RFC 9113 and RFC 8441, with their codes (NIO keeps the code
    /// internal).
    private static let defined: [(HTTP2SettingsParameter, UInt16)] = [
        (.headerTableSize, 1), (.enablePush, 2), (.maxConcurrentStreams, 3), (.initialWindowSize, 4),
        (.maxFrameSize, 5), (.maxHeaderListSize, 6), (.enableConnectProtocol, 8),
    ]

    /// The parameter's 16-bit code on the wire, for the parameters this layer sends.
    var code: UInt16? {
        Self.defined.first { $0.0 == self }?.1
    }
}
