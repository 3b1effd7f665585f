import NIOHTTP2

/// A violation of HTTP/2 that ends the connection: it was answered with GOAWAY carrying `code`,
/// and the connection closed.
package struct HTTP2ConnectionError: Error, CustomStringConvertible, Sendable {
    /// The error code sent in the GOAWAY.
    package var code: HTTP2ErrorCode
    /// What was wrong, in words.
    package var reason: String

    package init(_ code: HTTP2ErrorCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    package var description: String { "HTTP/2 \(code): \(reason)" }
}

/// Why a frame written to ``HTTP2FramingHandler`` was not sent.
package enum HTTP2WriteError: Error, Sendable, Equatable {
    /// The stream is closed or was reset before the frame could go out.
    case streamClosed
    /// The stream was never opened: the peer said GOAWAY, or the stream was reset while it
    /// waited for room under the peer's stream limit.
    case streamNotOpened
    /// The connection closed before the frame went out.
    case connectionClosed
    /// The handler does not send this kind of frame.
    case unsupportedFrame
}
