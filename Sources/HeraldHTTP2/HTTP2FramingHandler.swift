import NIOCore
import NIOHPACK
import NIOHTTP2

/// HTTP/2 on one connection, at the frame level: the channel handler around
/// ``HTTP2ConnectionStateMachine``, which keeps every rule of RFC 9113 and every flood limit. It
/// turns bytes read into `HTTP2Frame`s for the handler above and the frames that handler writes
/// into bytes, runs the SETTINGS timeout, and stops reading (server) while the peer does not
/// read what it is sent.
///
/// The handler above sees one inbound frame per HEADERS block, DATA, RST_STREAM, SETTINGS, PING
/// or GOAWAY, and writes HEADERS, DATA, RST_STREAM, SETTINGS, PING and GOAWAY frames; it never
/// deals with flow control or acknowledgements. A stream reset here (a stream error) is
/// reported upwards as an inbound RST_STREAM, so the layer above forgets it.
///
/// It does the work of `NIOHTTP2Handler` for a connection that runs one request per stream
/// with no stream channels, in a fraction of the time: one dictionary entry per open stream,
/// and all frames written between two flushes go out as one buffer.
package final class HTTP2FramingHandler: ChannelDuplexHandler {
    package typealias InboundIn = ByteBuffer
    package typealias InboundOut = HTTP2Frame
    package typealias OutboundIn = HTTP2Frame
    package typealias OutboundOut = ByteBuffer

    /// Which end of the connection this is.
    package enum Role: Sendable {
        case client
        case server
    }

    static let preface = HTTP2ConnectionStateMachine.preface

    var state: HTTP2ConnectionStateMachine
    /// Frames for the layer above from the frame just read (kept to reuse its storage).
    private var delivered: [HTTP2Frame] = []
    /// A server stops reading while its answers cannot be written (the peer does not read):
    /// set when a read was held back for that reason.
    private var readHeld = false
    private var settingsTimer: Scheduled<Void>?

    /// Creates the handler for one end of a connection.
    package init(role: Role, configuration: HTTP2FramingConfiguration = HTTP2FramingConfiguration()) {
        self.state = HTTP2ConnectionStateMachine(role: role, configuration: configuration)
    }

    var role: Role { state.role }

    package func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    package func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    private func start(context: ChannelHandlerContext) {
        guard !state.started else { return }
        state.start()
        if let timeout = state.configuration.settingsTimeout {
            settingsTimer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
                if let error = state.settingsTimedOut() { fail(error, context: context) }
            }
        }
        flushOutbound(context: context)
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !state.finished else { return }
        state.receive(unwrapInboundIn(data))
        do {
            // One frame at a time, each passed up before the next is read: the layer above may
            // answer (and close a stream) in between, as the peer expects.
            while try state.readNextFrame(into: &delivered) {
                if state.sawSettings, let timer = settingsTimer {
                    timer.cancel()
                    settingsTimer = nil
                }
                for frame in delivered { context.fireChannelRead(wrapInboundOut(frame)) }
                delivered.removeAll(keepingCapacity: true)
            }
        } catch {
            for frame in delivered { context.fireChannelRead(wrapInboundOut(frame)) }
            delivered.removeAll(keepingCapacity: true)
            fail(error, context: context)
        }
    }

    package func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        // Acknowledgements, window updates and resets made while reading, if the layer above
        // did not flush them with its own answers.
        if state.hasOutbound { flushOutbound(context: context) }
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        state.write(unwrapOutboundIn(data), promise: promise)
    }

    package func flush(context: ChannelHandlerContext) {
        flushOutbound(context: context)
    }

    /// A server holds back reads while the channel is not writable: what it reads makes answers,
    /// and answers the peer does not read would otherwise pile up without bound. A client does
    /// not (its callers bound what it writes, and it must keep reading answers to make room).
    package func read(context: ChannelHandlerContext) {
        if state.role == .server, !context.channel.isWritable {
            readHeld = true
        } else {
            context.read()
        }
    }

    package func channelWritabilityChanged(context: ChannelHandlerContext) {
        if readHeld, context.channel.isWritable {
            readHeld = false
            context.read()
        }
        context.fireChannelWritabilityChanged()
    }

    /// Writes every frame made since the last flush as one buffer, completing their promises
    /// when it is written.
    func flushOutbound(context: ChannelHandlerContext) {
        let (bytes, promises, controlFrames) = state.takeOutbound()
        var all = promises
        if controlFrames > 0 {
            // Counted until written: a peer that does not read cannot make them pile up.
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenComplete { [self] _ in state.controlFramesWritten(controlFrames) }
            all.append(written)
        }
        if let bytes {
            let promise: EventLoopPromise<Void>?
            switch all.count {
            case 0: promise = nil
            case 1: promise = all[0]
            default:
                let combined = context.eventLoop.makePromise(of: Void.self)
                combined.futureResult.whenComplete { result in
                    for each in all { each.completeWith(result) }
                }
                promise = combined
            }
            context.write(wrapOutboundOut(bytes), promise: promise)
        } else {
            for promise in all { promise.succeed() }
        }
        context.flush()
    }

    package func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        finish()
    }

    private func finish() {
        settingsTimer?.cancel()
        settingsTimer = nil
        state.finish()
    }

    /// A connection error: GOAWAY with its code, then close; the layer above hears why.
    func fail(_ error: HTTP2ConnectionError, context: ChannelHandlerContext) {
        guard !state.finished else { return }
        state.fail(error)
        flushOutbound(context: context)
        finish()
        context.fireErrorCaught(error)
        context.close(promise: nil)
    }

    /// True once this side opened the stream (its HEADERS went to the connection): a stream
    /// still waiting for room under the peer's limit was not.
    package func hasOpened(_ streamID: HTTP2StreamID) -> Bool {
        state.hasOpened(streamID)
    }
}
