import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL

/// A minimal HTTP/2 client at the frame level, written for these tests only (it shares no code with
/// Herald's provider client): it sends requests on one connection, any number at once, and records
/// GOAWAY frames.
final class H2TestClient: Sendable {
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    let channel: any Channel
    private let handler: NIOLoopBound<ClientHandler>

    private init(channel: any Channel, handler: NIOLoopBound<ClientHandler>) {
        self.channel = channel
        self.handler = handler
    }

    static func connect(port: Int, group: any EventLoopGroup, trusting certificatePath: String? = nil, clientCertificate: (cert: String, key: String)? = nil,
        validatingHeaders: Bool = true
    ) async throws -> H2TestClient {
        let tlsContext: NIOSSLContext? = try certificatePath.map { certificatePath in
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(certificatePath)
            tls.applicationProtocols = ["h2"]
            if let clientCertificate {
                tls.certificateChain = try NIOSSLCertificate.fromPEMFile(clientCertificate.cert).map { .certificate($0) }
                tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: clientCertificate.key, format: .pem))
            }
            return try NIOSSLContext(configuration: tls)
        }
        // The handler is captured as the pipeline is built: a connection the server closes at
        // once (an idle timeout, say) no longer has it in its pipeline afterwards.
        let slot = HandlerSlot()
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tlsContext {
                        try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: tlsContext, serverHostname: "localhost"))
                    }
                    try channel.pipeline.syncOperations.addHandler(NIOHTTP2Handler(
                        mode: .client, initialSettings: nioDefaultSettings, headerBlockValidation: validatingHeaders ? .enabled : .disabled
                    ))
                    let handler = ClientHandler()
                    try channel.pipeline.syncOperations.addHandler(handler)
                    slot.value = NIOLoopBound(handler, eventLoop: channel.eventLoop)
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .get()
        return H2TestClient(channel: channel, handler: slot.value!)
    }

    /// Carries the handler out of the channel initializer; written there, read after the
    /// connect future completed (which orders the two).
    private final class HandlerSlot: @unchecked Sendable {
        var value: NIOLoopBound<ClientHandler>?
    }

    /// Sends one request and waits for its answer.
    func send(method: String = "POST", path: String, headers: [(String, String)], body: String) async throws -> Response {
        let handler = self.handler
        let future: EventLoopFuture<Response> = channel.eventLoop.flatSubmit {
            handler.value.send(method: method, path: path, headers: headers, body: body)
        }
        return try await future.get()
    }

    /// The reason of the GOAWAY the server sent, once it arrives (or `nil` if the connection
    /// closed without one).
    func goAwayReason() async throws -> String? {
        let handler = self.handler
        return try await channel.eventLoop.flatSubmit { handler.value.goAway.futureResult }.get()
    }

    /// The SETTINGS_MAX_CONCURRENT_STREAMS values announced so far.
    func announcedMaxConcurrentStreams() async throws -> [Int] {
        let handler = self.handler
        return try await channel.eventLoop.submit { handler.value.maxConcurrentStreams }.get()
    }

    func close() async {
        try? await channel.close()
    }
}

final class ClientHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    private var context: ChannelHandlerContext?
    /// Set once the connection is gone, so later requests fail at once instead of waiting.
    private var isClosed = false
    /// The error that closed the connection, if any (a failed TLS handshake, for instance).
    private var closeError: (any Error)?
    private var nextStreamID = 1
    private var pending: [HTTP2StreamID: (promise: EventLoopPromise<H2TestClient.Response>, response: H2TestClient.Response)] = [:]
    var goAway: EventLoopPromise<String?>!
    /// Every SETTINGS_MAX_CONCURRENT_STREAMS value the server announced, in order.
    var maxConcurrentStreams: [Int] = []

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        goAway = context.eventLoop.makePromise()
    }

    func send(method: String, path: String, headers: [(String, String)], body: String) -> EventLoopFuture<H2TestClient.Response> {
        guard let context else { return context!.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel) }
        if isClosed { return context.eventLoop.makeFailedFuture(closeError ?? ClientError.closed) }
        let promise = context.eventLoop.makePromise(of: H2TestClient.Response.self)
        let streamID = HTTP2StreamID(nextStreamID)
        nextStreamID += 2
        var fields = HPACKHeaders([(":method", method), (":scheme", "https"), (":path", path), (":authority", "localhost")])
        for (name, value) in headers { fields.add(name: name, value: value) }
        pending[streamID] = (promise, H2TestClient.Response(status: 0, headers: [:], body: ""))
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: fields, endStream: body.isEmpty)))), promise: nil)
        if !body.isEmpty {
            let buffer = context.channel.allocator.buffer(string: body)
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(buffer), endStream: true)))), promise: nil)
        }
        context.flush()
        return promise.futureResult
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .headers(let headers):
            guard var entry = pending[frame.streamID] else { return }
            for (name, value, _) in headers.headers {
                if name == ":status" { entry.response.status = Int(value) ?? 0 } else { entry.response.headers[name] = value }
            }
            pending[frame.streamID] = entry
            if headers.endStream { complete(frame.streamID) }
        case .data(let data):
            guard var entry = pending[frame.streamID], case .byteBuffer(let buffer) = data.data else { return }
            entry.response.body += String(buffer: buffer)
            pending[frame.streamID] = entry
            if data.endStream { complete(frame.streamID) }
        case .settings(.settings(let settings)):
            for setting in settings where setting.parameter == .maxConcurrentStreams { maxConcurrentStreams.append(setting.value) }
        case .rstStream(let code):
            pending.removeValue(forKey: frame.streamID)?.promise.fail(ClientError.reset("\(code)"))
        case .goAway(_, _, let opaqueData):
            let text = opaqueData.map { String(buffer: $0) } ?? ""
            let reason = text.split(separator: "\"").dropFirst(3).first.map(String.init)
            goAway.succeed(reason ?? text)
        default:
            break
        }
    }

    private func complete(_ streamID: HTTP2StreamID) {
        guard let entry = pending.removeValue(forKey: streamID) else { return }
        entry.promise.succeed(entry.response)
    }

    func channelInactive(context: ChannelHandlerContext) {
        isClosed = true
        for (_, entry) in pending { entry.promise.fail(closeError ?? ClientError.closed) }
        pending = [:]
        goAway.succeed(nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        closeError = error
        context.close(promise: nil)
    }

    enum ClientError: Error {
        case closed
        case reset(String)
    }
}
