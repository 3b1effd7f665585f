import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import Synchronization

// An HTTP/2 peer for the client that shares none of Herald's framing: swift-nio-http2's own
// `NIOHTTP2Handler` keeps the protocol (HPACK, CONTINUATION on what it reads, flow control,
// stream limits), and a frame-level handler above it answers as APNs does and misbehaves on cue.
// swift-nio-http2 1.46 never sends CONTINUATION (a header block above the peer's frame size
// fails to serialize), so answers split into CONTINUATION frames are written by hand below it.
// A second, raw server below HTTP/2 stays silent or never acknowledges the client's SETTINGS.

/// A value shared between the servers' event loops and a test, behind a lock.
final class LockedRecord<Record: Sendable>: Sendable {
    private let state: Mutex<Record>

    init(_ initial: Record) {
        state = Mutex(initial)
    }

    /// A copy of what was recorded so far.
    var snapshot: Record { state.withLock { $0 } }

    @discardableResult
    func update<T: Sendable>(_ change: (inout Record) -> T) -> T {
        state.withLock { change(&$0) }
    }
}

/// What the NIOHTTP2 peer saw, over all its connections.
struct PeerRecord: Sendable {
    /// A request the server answered with 200.
    struct Delivery: Sendable, Hashable {
        /// The connection it came on, numbered from 0 in the order they were accepted.
        var connection: Int
        var streamID: Int
        var apnsID: String?
        var path: String
        /// The `authorization` field as NIOHPACK decoded it (with a header table size of 0, a
        /// client that still indexed it would break decoding).
        var authorization: String?
        /// The length of the `apns-topic` value received.
        var topicLength: Int
        /// The body bytes received, and in how many DATA frames.
        var bodyLength: Int
        var dataFrames: Int
    }

    var connectionsAccepted = 0
    /// Streams the client opened (refused ones included).
    var streamsOpened = 0
    /// Streams refused with RST_STREAM REFUSED_STREAM.
    var refused = 0
    var deliveries: [Delivery] = []
    /// The most streams open at once on one connection, counted as each stream opens.
    var peakConcurrentStreams = 0
    /// The same peak, by how many of the mid-connection SETTINGS changes the client had
    /// acknowledged when the stream opened (0: none yet, only the initial SETTINGS).
    var peakConcurrentStreamsAfterChanges: [Int: Int] = [:]
    var settingsChangesSent = 0
    /// SETTINGS acknowledgements from the client, the one for the initial SETTINGS included.
    var settingsAcknowledgements = 0
    /// The longest DATA payload received.
    var largestDataFrame = 0
    var goAwaysSent = 0
    /// The opaque data of every PING acknowledgement the client sent.
    var pingAcknowledgements: [UInt64] = []
    /// RST_STREAM and GOAWAY codes the client sent.
    var resetsReceived: [HTTP2ErrorCode] = []
    var goAwaysReceived: [HTTP2ErrorCode] = []
    /// Errors NIOHTTP2 raised on the server: the client broke HTTP/2 (a stream above the limit,
    /// a frame too large, a header block that does not decode, a window overrun). I/O errors
    /// (a connection reset when the client closes) are not counted.
    var protocolErrors: [String] = []

    /// How many times each `apns-id` was answered with 200.
    var deliveriesByID: [String: Int] {
        deliveries.reduce(into: [:]) { counts, delivery in counts[delivery.apnsID ?? "", default: 0] += 1 }
    }
}

/// How the NIOHTTP2 peer behaves; each test sets what it needs.
struct PeerServerConfiguration: Sendable {
    /// When a complete request is answered.
    enum Answer: Sendable {
        case immediately
        case after(TimeAmount)
        case never
    }

    /// GOAWAY on the first connection once `whenOpenStreams` streams are open at once; that
    /// connection holds every answer until then, so the streams are really in flight.
    struct GoAway: Sendable {
        var whenOpenStreams: Int
        var lastStreamID: Int
    }

    /// A SETTINGS frame sent once the connection has opened `afterStreams` streams.
    struct SettingsChange: Sendable {
        var afterStreams: Int
        var settings: HTTP2Settings
    }

    /// How an answer's header block goes out.
    enum AnswerHeaders: Sendable {
        /// Through NIOHTTP2: HPACK with its dynamic table, in one HEADERS frame.
        case nioHTTP2
        /// Written by hand below NIOHTTP2Handler: `:status`, `apns-id` and an `x-padding` field of
        /// `padding` bytes, as literals that touch no dynamic table (so NIOHTTP2's HPACK encoder
        /// and the client's decoder stay in step), in a HEADERS frame and CONTINUATION frames
        /// of at most `fragmentSize` bytes each. NIOHTTP2 still counts the stream as open.
        case continuation(padding: Int, fragmentSize: Int)
    }

    /// The SETTINGS the server starts each connection with.
    var settings: HTTP2Settings
    var answer: Answer
    /// Streams refused with REFUSED_STREAM, the first ones the server sees (over all connections).
    var refuseFirstStreams: Int
    var goAway: GoAway?
    /// A PING the server sends once the client's SETTINGS arrive, with this opaque data.
    var pingData: UInt64?
    var settingsChanges: [SettingsChange]
    var answerHeaders: AnswerHeaders

    init(
        settings: HTTP2Settings = PeerServerConfiguration.settings(), answer: Answer = .immediately, refuseFirstStreams: Int = 0,
        goAway: GoAway? = nil, pingData: UInt64? = nil, settingsChanges: [SettingsChange] = [], answerHeaders: AnswerHeaders = .nioHTTP2
    ) {
        self.settings = settings
        self.answer = answer
        self.refuseFirstStreams = refuseFirstStreams
        self.goAway = goAway
        self.pingData = pingData
        self.settingsChanges = settingsChanges
        self.answerHeaders = answerHeaders
    }

    /// A SETTINGS list: the stream limit and header list size always, the others when given.
    static func settings(
        maxConcurrentStreams: Int = 100, initialWindowSize: Int? = nil, maxFrameSize: Int? = nil, headerTableSize: Int? = nil,
        maxHeaderListSize: Int = 1 << 14
    ) -> HTTP2Settings {
        var settings = [
            HTTP2Setting(parameter: .maxConcurrentStreams, value: maxConcurrentStreams),
            HTTP2Setting(parameter: .maxHeaderListSize, value: maxHeaderListSize),
        ]
        if let initialWindowSize { settings.append(HTTP2Setting(parameter: .initialWindowSize, value: initialWindowSize)) }
        if let maxFrameSize { settings.append(HTTP2Setting(parameter: .maxFrameSize, value: maxFrameSize)) }
        if let headerTableSize { settings.append(HTTP2Setting(parameter: .headerTableSize, value: headerTableSize)) }
        return settings
    }
}

/// A cleartext HTTP/2 server (prior knowledge) on 127.0.0.1 made of swift-nio-http2's
/// `NIOHTTP2Handler` with an APNs-like responder above it.
final class NIOHTTP2PeerServer: Sendable {
    let port: Int
    let recorder: LockedRecord<PeerRecord>
    private let listener: any Channel
    private let connections: LockedRecord<[any Channel]>

    private init(port: Int, recorder: LockedRecord<PeerRecord>, listener: any Channel, connections: LockedRecord<[any Channel]>) {
        self.port = port
        self.recorder = recorder
        self.listener = listener
        self.connections = connections
    }

    /// What the server saw so far.
    var record: PeerRecord { recorder.snapshot }

    static func start(
        _ configuration: PeerServerConfiguration = PeerServerConfiguration(), group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> NIOHTTP2PeerServer {
        let recorder = LockedRecord(PeerRecord())
        let connections = LockedRecord<[any Channel]>([])
        let listener = try await ServerBootstrap(group: group)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                connections.update { $0.append(channel) }
                let index = recorder.update { record in
                    defer { record.connectionsAccepted += 1 }
                    return record.connectionsAccepted
                }
                return channel.eventLoop.makeCompletedFuture {
                    var connection = NIOHTTP2Handler.ConnectionConfiguration()
                    connection.initialSettings = configuration.settings
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(NIOHTTP2Handler(mode: .server, connectionConfiguration: connection))
                    try pipeline.addHandler(APNsPeerHandler(configuration: configuration, recorder: recorder, connection: index))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return NIOHTTP2PeerServer(port: listener.localAddress!.port!, recorder: recorder, listener: listener, connections: connections)
    }

    /// Stops listening and closes every connection still open.
    func stop() async {
        try? await listener.close()
        for channel in connections.snapshot { try? await channel.close() }
    }
}

/// Answers APNs requests at the frame level, above `NIOHTTP2Handler` with no stream
/// multiplexer: it sees every frame, and gives flow-control windows back itself.
private final class APNsPeerHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// A request from its HEADERS until it is answered, refused, reset or dropped by GOAWAY.
    private struct Request {
        var headers: HPACKHeaders
        var complete: Bool
        var bodyLength = 0
        var dataFrames = 0
    }

    private let configuration: PeerServerConfiguration
    private let recorder: LockedRecord<PeerRecord>
    private let connection: Int
    /// The open streams (in this server's view: closed once answered).
    private var requests: [HTTP2StreamID: Request] = [:]
    private var streamsOpened = 0
    private var settingsAcknowledged = 0
    private var settingsChangesSent = 0
    private var goAwayLastStreamID: HTTP2StreamID?
    private var sawClientSettings = false
    private var active = true

    init(configuration: PeerServerConfiguration, recorder: LockedRecord<PeerRecord>, connection: Int) {
        self.configuration = configuration
        self.recorder = recorder
        self.connection = connection
    }

    /// Only the first connection says GOAWAY: the client's resends go to a well-behaved one.
    private var plannedGoAway: PeerServerConfiguration.GoAway? { connection == 0 ? configuration.goAway : nil }

    func channelInactive(context: ChannelHandlerContext) {
        active = false
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .headers(let headers):
            receiveHeaders(headers, on: frame.streamID, context: context)
        case .data(let body):
            receiveData(body, on: frame.streamID, context: context)
        case .rstStream(let code):
            requests[frame.streamID] = nil
            recorder.update { $0.resetsReceived.append(code) }
        case .settings(.ack):
            settingsAcknowledged += 1
            recorder.update { $0.settingsAcknowledgements += 1 }
        case .settings(.settings(_)):
            guard !sawClientSettings else { break }
            sawClientSettings = true
            if let value = configuration.pingData {
                send(HTTP2Frame(streamID: .rootStream, payload: .ping(HTTP2PingData(withInteger: value), ack: false)), context)
            }
        case .ping(let data, ack: true):
            recorder.update { $0.pingAcknowledgements.append(data.integer) }
        case .goAway(_, let code, _):
            recorder.update { $0.goAwaysReceived.append(code) }
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !(error is IOError || error is ChannelError) {
            recorder.update { $0.protocolErrors.append("\(error)") }
        }
        // A stream error ended one stream (NIOHTTP2 reset it); any other ends the connection
        // (NIOHTTP2 already sent GOAWAY).
        if !(error is NIOHTTP2Errors.StreamError) { context.close(promise: nil) }
    }

    private func receiveHeaders(_ payload: HTTP2Frame.FramePayload.Headers, on streamID: HTTP2StreamID, context: ChannelHandlerContext) {
        // A second header block would be trailers, which APNs requests do not have; streams
        // above a GOAWAY are not processed.
        guard requests[streamID] == nil else { return }
        if let last = goAwayLastStreamID, streamID > last { return }
        streamsOpened += 1
        recorder.update { $0.streamsOpened += 1 }
        let refuse = recorder.update { record in
            guard record.refused < configuration.refuseFirstStreams else { return false }
            record.refused += 1
            return true
        }
        if refuse {
            send(HTTP2Frame(streamID: streamID, payload: .rstStream(.refusedStream)), context)
            return
        }
        requests[streamID] = Request(headers: payload.headers, complete: payload.endStream)
        let open = requests.count
        let phase = max(settingsAcknowledged - 1, 0)
        recorder.update { record in
            record.peakConcurrentStreams = max(record.peakConcurrentStreams, open)
            record.peakConcurrentStreamsAfterChanges[phase] = max(record.peakConcurrentStreamsAfterChanges[phase] ?? 0, open)
        }
        sendDueSettingsChanges(context)
        if let goAway = plannedGoAway, goAwayLastStreamID == nil, open >= goAway.whenOpenStreams {
            sendGoAway(lastStreamID: HTTP2StreamID(goAway.lastStreamID), context)
        }
        if payload.endStream { answerWhenDue(streamID, context) }
    }

    private func receiveData(_ payload: HTTP2Frame.FramePayload.Data, on streamID: HTTP2StreamID, context: ChannelHandlerContext) {
        let length = payload.data.readableBytes
        recorder.update { $0.largestDataFrame = max($0.largestDataFrame, length) }
        // With no stream multiplexer above NIOHTTP2Handler, nothing else gives windows back.
        if length > 0 { send(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: length)), context) }
        guard var request = requests[streamID] else { return }
        request.bodyLength += length
        request.dataFrames += 1
        request.complete = payload.endStream
        requests[streamID] = request
        if payload.endStream {
            answerWhenDue(streamID, context)
        } else if length > 0 {
            send(HTTP2Frame(streamID: streamID, payload: .windowUpdate(windowSizeIncrement: length)), context)
        }
    }

    private func sendDueSettingsChanges(_ context: ChannelHandlerContext) {
        let changes = configuration.settingsChanges
        while settingsChangesSent < changes.count, streamsOpened >= changes[settingsChangesSent].afterStreams {
            send(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings(changes[settingsChangesSent].settings))), context)
            settingsChangesSent += 1
            recorder.update { $0.settingsChangesSent += 1 }
        }
    }

    private func sendGoAway(lastStreamID: HTTP2StreamID, _ context: ChannelHandlerContext) {
        goAwayLastStreamID = lastStreamID
        send(HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: lastStreamID, errorCode: .noError, opaqueData: nil)), context)
        recorder.update { $0.goAwaysSent += 1 }
        // Streams above it are never processed (NIOHTTP2 closed them); those at or below it
        // get the answers held until now.
        requests = requests.filter { $0.key <= lastStreamID }
        for streamID in Array(requests.keys) { answerWhenDue(streamID, context) }
    }

    private func answerWhenDue(_ streamID: HTTP2StreamID, _ context: ChannelHandlerContext) {
        guard let request = requests[streamID], request.complete else { return }
        if plannedGoAway != nil, goAwayLastStreamID == nil { return }
        switch configuration.answer {
        case .immediately:
            answer(streamID, context)
        case .after(let delay):
            context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
                guard active else { return }
                answer(streamID, context)
            }
        case .never:
            break
        }
    }

    /// `:status 200` with the request's `apns-id` (or a new one), no body; 404 for anything
    /// but a POST to /3/device/.
    private func answer(_ streamID: HTTP2StreamID, _ context: ChannelHandlerContext) {
        guard let request = requests.removeValue(forKey: streamID) else { return }
        let path = request.headers.first(name: ":path") ?? ""
        let isNotification = request.headers.first(name: ":method") == "POST" && path.hasPrefix("/3/device/")
        let requestedID = request.headers.first(name: "apns-id")
        let apnsID = requestedID ?? UUID().uuidString.lowercased()
        // Recorded before the answer goes out, so a client that has its answer finds it here.
        if isNotification {
            let delivery = PeerRecord.Delivery(
                connection: connection, streamID: Int(streamID), apnsID: requestedID, path: path,
                authorization: request.headers.first(name: "authorization"), topicLength: request.headers.first(name: "apns-topic")?.utf8.count ?? 0,
                bodyLength: request.bodyLength, dataFrames: request.dataFrames
            )
            recorder.update { $0.deliveries.append(delivery) }
        }
        switch configuration.answerHeaders {
        case .nioHTTP2:
            let headers = HPACKHeaders([(":status", isNotification ? "200" : "404"), ("apns-id", apnsID)])
            send(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: true))), context)
        case .continuation(let padding, let fragmentSize):
            // Written through NIOHTTP2Handler's own context: the bytes go out below it.
            let frames = HandMadeAnswer.frames(
                streamID: streamID, status: isNotification ? 200 : 404, apnsID: apnsID, padding: padding, fragmentSize: fragmentSize
            )
            guard let below = try? context.pipeline.syncOperations.context(handlerType: NIOHTTP2Handler.self) else { return }
            below.writeAndFlush(NIOAny(IOData.byteBuffer(frames)), promise: nil)
        }
    }

    private func send(_ frame: HTTP2Frame, _ context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }
}

/// An answer's header block made by hand, for the CONTINUATION frames NIOHTTP2 does not send.
private enum HandMadeAnswer {
    /// HEADERS (END_STREAM) then CONTINUATION frames, the last with END_HEADERS. The block is
    /// `:status` from the static table, then `apns-id` and `x-padding` (if `padding` > 0) as
    /// literals without indexing, with new names and no Huffman coding (RFC 7541 §6.2.2).
    static func frames(streamID: HTTP2StreamID, status: Int, apnsID: String, padding: Int, fragmentSize: Int) -> ByteBuffer {
        var block = ByteBuffer()
        block.writeInteger(UInt8(0x80 | (status == 200 ? 8 : 13)))  // static index 8 is :status 200, 13 is 404
        var fields = [("apns-id", apnsID)]
        if padding > 0 { fields.append(("x-padding", String(repeating: "x", count: padding))) }
        for (name, value) in fields {
            block.writeInteger(UInt8(0x00))
            appendString(name, to: &block)
            appendString(value, to: &block)
        }
        var frames = ByteBuffer()
        var first = true
        while first || block.readableBytes > 0 {
            let fragment = block.readSlice(length: min(max(fragmentSize, 1), block.readableBytes))!
            var flags: UInt8 = first ? 0x1 : 0  // END_STREAM, on the HEADERS frame
            if block.readableBytes == 0 { flags |= 0x4 }  // END_HEADERS, on the last frame
            frames.writeInteger(UInt8(truncatingIfNeeded: fragment.readableBytes >> 16))
            frames.writeInteger(UInt16(truncatingIfNeeded: fragment.readableBytes))
            frames.writeInteger(first ? UInt8(0x1) : UInt8(0x9))  // HEADERS, CONTINUATION
            frames.writeInteger(flags)
            frames.writeInteger(UInt32(Int32(streamID)))
            frames.writeImmutableBuffer(fragment)
            first = false
        }
        return frames
    }

    /// An HPACK string literal: its length as an integer with a 7-bit prefix, then its octets.
    private static func appendString(_ string: String, to buffer: inout ByteBuffer) {
        var length = string.utf8.count
        if length < 127 {
            buffer.writeInteger(UInt8(length))
        } else {
            buffer.writeInteger(UInt8(127))
            length -= 127
            while length >= 128 {
                buffer.writeInteger(UInt8(length & 0x7F | 0x80))
                length >>= 7
            }
            buffer.writeInteger(UInt8(length))
        }
        buffer.writeString(string)
    }
}

/// A TCP server below HTTP/2 that writes raw bytes: either nothing at all, or its SETTINGS and
/// then nothing (it never acknowledges the client's SETTINGS, never answers). It records the
/// frames the client sends.
final class RawHTTP2PeerServer: Sendable {
    enum Mode: Sendable {
        /// Accepts the connection and never writes a byte.
        case silent
        /// Sends a SETTINGS frame (MAX_CONCURRENT_STREAMS 10), then never writes again.
        case settingsWithoutAcknowledgement
    }

    /// A frame header the client sent.
    struct Frame: Sendable, Hashable {
        var type: UInt8
        var flags: UInt8
    }

    struct Record: Sendable {
        var connectionsAccepted = 0
        /// Whether each connection started with the client preface.
        var prefaces: [Bool] = []
        var frames: [Frame] = []
    }

    let port: Int
    let recorder: LockedRecord<Record>
    private let listener: any Channel
    private let connections: LockedRecord<[any Channel]>

    private init(port: Int, recorder: LockedRecord<Record>, listener: any Channel, connections: LockedRecord<[any Channel]>) {
        self.port = port
        self.recorder = recorder
        self.listener = listener
        self.connections = connections
    }

    var record: Record { recorder.snapshot }

    static func start(_ mode: Mode, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> RawHTTP2PeerServer {
        let recorder = LockedRecord(Record())
        let connections = LockedRecord<[any Channel]>([])
        let listener = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                connections.update { $0.append(channel) }
                recorder.update { $0.connectionsAccepted += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RawPeerHandler(mode: mode, recorder: recorder))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return RawHTTP2PeerServer(port: listener.localAddress!.port!, recorder: recorder, listener: listener, connections: connections)
    }

    func stop() async {
        try? await listener.close()
        for channel in connections.snapshot { try? await channel.close() }
    }
}

/// Writes the raw server's bytes and splits what the client sends into frame headers.
private final class RawPeerHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// SETTINGS (type 4, no flags, stream 0) with one setting: MAX_CONCURRENT_STREAMS (3) = 10.
    private static let settings: [UInt8] = [0, 0, 6, 0x4, 0, 0, 0, 0, 0, 0, 0x3, 0, 0, 0, 10]

    private let mode: RawHTTP2PeerServer.Mode
    private let recorder: LockedRecord<RawHTTP2PeerServer.Record>
    private var received = ByteBuffer()
    private var prefaceRead = false

    init(mode: RawHTTP2PeerServer.Mode, recorder: LockedRecord<RawHTTP2PeerServer.Record>) {
        self.mode = mode
        self.recorder = recorder
    }

    func channelActive(context: ChannelHandlerContext) {
        if mode == .settingsWithoutAcknowledgement {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: Self.settings)), promise: nil)
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        if !prefaceRead {
            guard received.readableBytes >= Self.preface.count, let preface = received.readBytes(length: Self.preface.count) else { return }
            prefaceRead = true
            recorder.update { $0.prefaces.append(preface == Self.preface) }
        }
        // Frame header: 24-bit length, type, flags, 31-bit stream id; the payload is skipped.
        while received.readableBytes >= 9,
            let high = received.getInteger(at: received.readerIndex, as: UInt16.self),
            let low = received.getInteger(at: received.readerIndex + 2, as: UInt8.self),
            let type = received.getInteger(at: received.readerIndex + 3, as: UInt8.self),
            let flags = received.getInteger(at: received.readerIndex + 4, as: UInt8.self)
        {
            let length = Int(high) << 8 | Int(low)
            guard received.readableBytes >= 9 + length else { break }
            received.moveReaderIndex(forwardBy: 9 + length)
            recorder.update { $0.frames.append(RawHTTP2PeerServer.Frame(type: type, flags: flags)) }
        }
        received.discardReadBytes()
    }
}

/// Thrown by ``bounded(_:_:_:)`` when the operation did not finish in time.
struct BoundExceeded: Error, CustomStringConvertible {
    var what: String
    var limit: Duration
    var description: String { "\(what) did not finish within \(limit)" }
}

/// Runs `operation` and returns its result, or throws ``BoundExceeded`` once `limit` has passed:
/// a client that hangs fails the test instead of hanging it. (A task group would wait for its
/// hung child, as the client's sends do not answer cancellation; here the operation is left
/// running and the test goes on.)
func bounded<T: Sendable>(_ limit: Duration, _ what: String, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let once = ResumeOnce(continuation)
        let timer = Task {
            try? await Task.sleep(for: limit)
            once.resume(.failure(BoundExceeded(what: what, limit: limit)))
        }
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            once.resume(result)
            timer.cancel()
        }
    }
}

/// A continuation resumed by whichever side comes first.
private final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = Mutex(continuation)
    }

    /// Resumes the continuation if nothing did yet; true if this call did.
    @discardableResult
    func resume(_ result: Result<T, any Error>) -> Bool {
        let taken = continuation.withLock { slot in
            defer { slot = nil }
            return slot
        }
        taken?.resume(with: result)
        return taken != nil
    }
}
