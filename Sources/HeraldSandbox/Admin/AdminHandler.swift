import Foundation
import NIOCore
import NIOHTTP1

/// Reads one HTTP/1.1 request at a time, answers it through ``AdminRouter``, and serves the
/// server-sent-event stream of a device's notifications.
final class AdminHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Request bodies larger than this are refused (413).
    static let maximumBody = 1024 * 1024

    private let router: AdminRouter
    private let state: SandboxState
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false
    private var subscription: (token: String, id: UUID)?

    init(router: AdminRouter, state: SandboxState) {
        self.router = router
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            tooLarge = false
        case .body(let buffer):
            if body.count + buffer.readableBytes > Self.maximumBody { tooLarge = true } else { body.append(contentsOf: buffer.readableBytesView) }
        case .end:
            guard let head else { return }
            self.head = nil
            if tooLarge {
                respond(AdminResponse.error(413, "body_too_large", "the request body is larger than \(Self.maximumBody) bytes"), head: head, context: context)
                return
            }
            let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
            let parts = path.split(separator: "/").map(String.init)
            if head.method == .GET, parts.count == 3, parts[0] == "devices", parts[2] == "events" {
                startEvents(token: parts[1].lowercased(), head: head, context: context)
                return
            }
            respond(router.route(method: head.method.rawValue, uri: head.uri, body: body), head: head, context: context)
        }
    }

    private func respond(_ response: AdminResponse, head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json")
        headers.add(name: "content-length", value: String(response.body.count))
        if !head.isKeepAlive { headers.add(name: "connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: response.status), headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))), promise: nil)
        let keepAlive = head.isKeepAlive
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            if !keepAlive { context.close(promise: nil) }
        }
    }

    /// `GET /devices/<token>/events`: one `data: {notification}` event per notification the device
    /// receives, until the client disconnects.
    private func startEvents(token: String, head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard state.device(token: token) != nil else {
            respond(AdminResponse.error(404, "not_found", "no device with token \(token)"), head: head, context: context)
            return
        }
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "text/event-stream")
        headers.add(name: "cache-control", value: "no-cache")
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
        let channel = context.channel
        let encoder = AdminRouter.encoder
        let id = state.subscribe(token: token) { notification in
            guard let json = try? encoder.encode(notification) else { return }
            var buffer = channel.allocator.buffer(capacity: json.count + 16)
            buffer.writeString("event: notification\ndata: ")
            buffer.writeBytes(json)
            buffer.writeString("\n\n")
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
        }
        subscription = (token, id)
        // A comment line so clients know the stream is open.
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: ": subscribed to \(token)\n\n")))), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let subscription { state.unsubscribe(token: subscription.token, id: subscription.id) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
