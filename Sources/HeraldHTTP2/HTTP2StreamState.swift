import NIOCore

/// What the framing layer knows of one open stream: its flow-control windows, which sides have
/// ended it, and DATA waiting for window.
struct HTTP2StreamState {
    /// Bytes this side may still send on the stream, less the peer's current
    /// SETTINGS_INITIAL_WINDOW_SIZE: kept relative so that a change of that setting costs
    /// nothing per stream (RFC 9113 §6.9.2).
    var sendWindowOffset = 0
    /// Bytes the peer may still send on the stream.
    var receiveWindow: Int
    /// Bytes received since the stream's last WINDOW_UPDATE.
    var receiveUnacknowledged = 0
    /// This side sent END_STREAM (or queued it behind flow control).
    var localClosed = false
    /// The peer sent END_STREAM.
    var remoteClosed = false
    /// DATA written but held back by flow control, in order.
    var queued: [QueuedData] = []
    /// The peer's `content-length`, when it sent one: the DATA it sends must add up to it
    /// (RFC 9113 §8.1.1).
    var expectedLength: Int?
    /// DATA payload bytes received (padding excluded).
    var receivedLength = 0
    /// The peer sent this stream's first header block (its request, or its answer).
    var sawHeaders = false

    var isDone: Bool { localClosed && remoteClosed && queued.isEmpty }
}

/// DATA held back by flow control.
struct QueuedData {
    var buffer: ByteBuffer
    var endStream: Bool
    var promise: EventLoopPromise<Void>?
}
