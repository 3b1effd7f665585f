import NIOCore

/// What the framing layer knows of one open stream: its flow-control windows, which sides have
/// ended it, and DATA waiting for window.
struct HTTP2StreamState {
    /// Bytes this side may still send on the stream.
    var sendWindow: Int
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

    var isDone: Bool { localClosed && remoteClosed && queued.isEmpty }
}

/// DATA held back by flow control.
struct QueuedData {
    var buffer: ByteBuffer
    var endStream: Bool
    var promise: EventLoopPromise<Void>?
}
