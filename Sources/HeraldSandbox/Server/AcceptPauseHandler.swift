#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import NIOCore

/// Stops accepting for a while when `accept()` fails for want of resources (no file descriptor
/// left, no memory), instead of trying again at once in a loop that takes a whole core.
///
/// NIO's `AcceptBackoffHandler` delays the next `read()`, but when the very first `accept()` of
/// a read fails, the listening socket stays registered for reading and the event loop is woken
/// for it again and again. Turning `autoRead` off takes it out of the selector; turning it back
/// on after the pause tries again.
final class AcceptPauseHandler: ChannelInboundHandler {
    typealias InboundIn = any Channel

    private let pause: TimeAmount
    private let logger: Logger
    private var paused = false

    init(pause: TimeAmount = .seconds(1), logger: Logger) {
        self.pause = pause
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        guard !paused, let options = context.channel.syncOptions else { return }
        paused = true
        logger.warning("cannot accept connections (\(error)): new clients wait \(pause.nanoseconds / 1_000_000) ms")
        try? options.setOption(.autoRead, value: false)
        context.eventLoop.assumeIsolated().scheduleTask(in: pause) { [self] in
            paused = false
            try? options.setOption(.autoRead, value: true)
        }
    }
}
