import HeraldCore
import NIOCore
import NIOHTTP2
import Synchronization

/// What a connection has learned from the server's connection-level frames: whether it said
/// GOAWAY (and up to which stream it processed requests), and its stream limit.
final class ConnectionStatus: Sendable {
    struct Snapshot {
        /// Set once GOAWAY arrived: streams above it were never processed.
        var goAwayLastStreamID: Int?
        /// The JSON reason the server gave with GOAWAY, if any.
        var goAwayReason: String?
        /// The server's SETTINGS_MAX_CONCURRENT_STREAMS (1 until a token connection is unlocked).
        var maxConcurrentStreams: Int?
        var closed = false
    }

    private let state = Mutex(Snapshot())

    var snapshot: Snapshot { state.withLock { $0 } }

    func update(_ change: (inout Snapshot) -> Void) {
        state.withLock { change(&$0) }
    }
}

/// Watches the root stream after the HTTP/2 handler and records GOAWAY and SETTINGS.
final class ConnectionObserver: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame

    let status: ConnectionStatus

    init(status: ConnectionStatus) {
        self.status = status
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .goAway(let lastStreamID, _, let opaqueData):
            let reason = opaqueData.flatMap { APNsErrorBody(bytes: $0.readableBytesView)?.reason.rawValue }
            status.update {
                $0.goAwayLastStreamID = Int(lastStreamID)
                $0.goAwayReason = reason
            }
        case .settings(.settings(let settings)):
            for setting in settings where setting.parameter == .maxConcurrentStreams {
                status.update { $0.maxConcurrentStreams = setting.value }
            }
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        status.update { $0.closed = true }
        context.fireChannelInactive()
    }
}
