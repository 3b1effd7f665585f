import Crypto
import Foundation
import HeraldAPNs
import HeraldCore
import NIOCore
import NIOHTTP2
import NIOPosix
import Testing

/// The client against an HTTP/2 implementation it shares nothing with: swift-nio-http2's
/// `NIOHTTP2Handler` as the server (NIOHTTP2PeerServer.swift), which enforces flow control,
/// stream limits, frame sizes and HPACK on its own, so a client bug shows as a refused stream,
/// a protocol error, a wrong byte count or a failed send. Serialized: several tests count
/// concurrent streams or time an answer, and a 2-core machine running them all at once would
/// blur both.
@Suite("Client against swift-nio-http2's server", .serialized)
struct IndependentPeerTests {
    /// A client with one connection to the peer, over cleartext HTTP/2, with no idle PINGs.
    func client(
        port: Int, requestTimeout: Duration = .seconds(10), connectTimeout: Duration = .seconds(10),
        retry: RetryPolicy = RetryPolicy(maximumAttempts: 3, initialBackoff: .milliseconds(5))
    ) throws -> APNsClient {
        let key = try ProviderKey(privateKey: P256.Signing.PrivateKey(), keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        return try APNsClient(configuration: APNsClientConfiguration(
            endpoint: .custom(host: "127.0.0.1", port: port), transport: .cleartext, authentication: .token(ProviderTokenSource(key: key)),
            connections: 1, requestTimeout: requestTimeout, connectTimeout: connectTimeout, retry: retry, pingInterval: nil
        ), eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
    }

    /// Notification `index`, with its own device token and `apns-id`.
    func notification(_ index: Int, body: PayloadBody = .payload(.alert(title: "Hello", body: "World")), topic: String = "com.example.app") throws -> PushNotification {
        PushNotification(
            deviceToken: try DeviceToken(parsing: String(format: "%04x", index) + String(repeating: "c", count: 60)),
            body: body,
            headers: NotificationHeaders(pushType: .alert, topic: topic, id: NotificationID())
        )
    }

    /// A raw body of `count` bytes (the server counts them; it does not parse them).
    func rawBody(_ count: Int) -> PayloadBody {
        .raw(Array(repeating: UInt8(ascii: "x"), count: count))
    }

    /// Polls `condition` until it holds or `limit` passes; whether it held.
    func eventually(within limit: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Every notification was answered 200 exactly once by the server, and nothing else was.
    func expectDeliveredOnce(_ notifications: [PushNotification], _ record: PeerRecord, sourceLocation: SourceLocation = #_sourceLocation) {
        let counts = record.deliveriesByID
        let ids = notifications.map { $0.headers.id!.headerValue }
        #expect(ids.allSatisfy { counts[$0] == 1 }, "deliveries per apns-id: \(Set(ids.map { counts[$0] ?? 0 }))", sourceLocation: sourceLocation)
        #expect(record.deliveries.count == notifications.count, "\(record.deliveries.count) deliveries", sourceLocation: sourceLocation)
    }

    // MARK: - Flow control, stream limits, frame sizes, HPACK

    @Test(.timeLimit(.minutes(1)))
    func aSixteenByteWindowDeliversEveryBodyWhole() async throws {
        let server = try await NIOHTTP2PeerServer.start(.init(settings: PeerServerConfiguration.settings(initialWindowSize: 16)))
        let client = try client(port: server.port)
        let notifications = try (0..<20).map { try notification($0, body: rawBody(2048)) }
        let results = try await bounded(.seconds(30), "20 sends through 16-byte windows") { try await client.sendAll(notifications) }
        #expect(results.count == 20 && results.allSatisfy(\.isSuccess), "\(results.filter { !$0.isSuccess }.prefix(3))")
        let record = server.record
        expectDeliveredOnce(notifications, record)
        #expect(record.deliveries.allSatisfy { $0.bodyLength == 2048 }, "body lengths \(Set(record.deliveries.map(\.bodyLength)))")
        // No DATA frame above the window: 2 KB in frames of at most 16 bytes, each after a WINDOW_UPDATE.
        #expect(record.largestDataFrame <= 16 && record.deliveries.allSatisfy { $0.dataFrames >= 128 }, "largest DATA frame \(record.largestDataFrame)")
        #expect(record.protocolErrors.isEmpty, "\(record.protocolErrors)")
        try await client.shutdown()
        await server.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func twoConcurrentStreamsAreNeverExceeded() async throws {
        // Answers are delayed so that streams stay open and the limit is really reached.
        let server = try await NIOHTTP2PeerServer.start(.init(
            settings: PeerServerConfiguration.settings(maxConcurrentStreams: 2), answer: .after(.milliseconds(20))
        ))
        let client = try client(port: server.port)
        let notifications = try (0..<50).map { try notification($0) }
        let results = try await bounded(.seconds(30), "50 sends under a limit of 2") { try await client.sendAll(notifications) }
        #expect(results.count == 50 && results.allSatisfy { $0.isSuccess && $0.attempts == 1 }, "\(results.filter { !$0.isSuccess }.prefix(3))")
        let record = server.record
        expectDeliveredOnce(notifications, record)
        // NIOHTTP2 would refuse a third stream (a stream error, recorded); the peak shows the
        // client used what it was allowed.
        #expect(record.peakConcurrentStreams == 2, "peak \(record.peakConcurrentStreams)")
        #expect(record.protocolErrors.isEmpty && record.connectionsAccepted == 1, "\(record.protocolErrors)")
        try await client.shutdown()
        await server.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func aStreamLimitLoweredThenRaisedMidConnectionIsFollowed() async throws {
        // 5 streams at first; after 10 streams SETTINGS lowers the limit to 1, after 20 raises it to 50.
        let server = try await NIOHTTP2PeerServer.start(.init(
            settings: PeerServerConfiguration.settings(maxConcurrentStreams: 5), answer: .after(.milliseconds(10)),
            settingsChanges: [
                .init(afterStreams: 10, settings: [HTTP2Setting(parameter: .maxConcurrentStreams, value: 1)]),
                .init(afterStreams: 20, settings: [HTTP2Setting(parameter: .maxConcurrentStreams, value: 50)]),
            ]
        ))
        let client = try client(port: server.port)
        let notifications = try (0..<60).map { try notification($0) }
        let results = try await bounded(.seconds(30), "60 sends across two SETTINGS changes") { try await client.sendAll(notifications) }
        #expect(results.count == 60 && results.allSatisfy(\.isSuccess), "\(results.filter { !$0.isSuccess }.prefix(3))")
        let record = server.record
        expectDeliveredOnce(notifications, record)
        // The initial SETTINGS and both changes were acknowledged.
        #expect(record.settingsChangesSent == 2 && record.settingsAcknowledgements == 3, "acknowledgements \(record.settingsAcknowledgements)")
        let peaks = record.peakConcurrentStreamsAfterChanges
        #expect((peaks[0] ?? 0) <= 5, "peaks by SETTINGS acknowledged: \(peaks)")
        // Once the lower limit was acknowledged, no stream opened beside another.
        #expect(peaks[1] == 1, "peaks by SETTINGS acknowledged: \(peaks)")
        // Once the higher one was, the waiting requests went out together.
        #expect((6...50).contains(peaks[2] ?? 0), "peaks by SETTINGS acknowledged: \(peaks)")
        #expect(record.protocolErrors.isEmpty && record.connectionsAccepted == 1, "\(record.protocolErrors)")
        try await client.shutdown()
        await server.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func theMinimumMaxFrameSizeSplitsBodies() async throws {
        // SETTINGS_MAX_FRAME_SIZE 16384 (the least allowed); stream windows of 1 MB so that only
        // the frame size splits the DATA. NIOHTTP2 answers a larger frame with FRAME_SIZE_ERROR.
        let server = try await NIOHTTP2PeerServer.start(.init(
            settings: PeerServerConfiguration.settings(initialWindowSize: 1 << 20, maxFrameSize: 16_384)
        ))
        let client = try client(port: server.port)
        let small = try notification(0, body: rawBody(4096))
        let large = try notification(1, body: rawBody(40_960))
        let results = try await bounded(.seconds(30), "a 4 KB and a 40 KB body") {
            [await client.send(small), await client.send(large)]
        }
        let allSucceeded = results.allSatisfy { $0.isSuccess }
        #expect(allSucceeded, "\(results)")
        let record = server.record
        expectDeliveredOnce([small, large], record)
        let byID = Dictionary(record.deliveries.map { ($0.apnsID ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byID[small.headers.id!.headerValue]?.bodyLength == 4096)
        let largeDelivery = byID[large.headers.id!.headerValue]
        #expect(largeDelivery?.bodyLength == 40_960 && (largeDelivery?.dataFrames ?? 0) >= 3, "\(String(describing: largeDelivery))")
        #expect(record.largestDataFrame <= 16_384, "largest DATA frame \(record.largestDataFrame)")
        #expect(record.protocolErrors.isEmpty, "\(record.protocolErrors)")
        try await client.shutdown()
        await server.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func aHeaderTableSizeOfZeroKeepsHPACKInStep() async throws {
        // The client indexes the provider token and refers to it afterwards. With a table of 0
        // it must send a size update and index nothing: NIOHPACK, holding no entry, would fail
        // the second request's reference with COMPRESSION_ERROR.
        let server = try await NIOHTTP2PeerServer.start(.init(settings: PeerServerConfiguration.settings(headerTableSize: 0)))
        let client = try client(port: server.port)
        let notifications = try (0..<5).map { try notification($0) }
        let results = try await bounded(.seconds(30), "5 sends with a header table of 0") {
            var results: [APNsResult] = []
            for notification in notifications { results.append(await client.send(notification)) }
            return results
        }
        #expect(results.allSatisfy { $0.isSuccess && $0.attempts == 1 }, "\(results.filter { !$0.isSuccess }.prefix(3))")
        let record = server.record
        expectDeliveredOnce(notifications, record)
        let authorizations = Set(record.deliveries.map { $0.authorization ?? "" })
        #expect(authorizations.count == 1 && authorizations.first?.hasPrefix("bearer ") == true, "\(authorizations)")
        #expect(record.protocolErrors.isEmpty && record.connectionsAccepted == 1, "\(record.protocolErrors)")
        try await client.shutdown()
        await server.stop()
    }

    // MARK: - Large header blocks

    @Test(.timeLimit(.minutes(1)))
    func largeRequestHeadersGoOutInContinuationFrames() async throws {
        // A 40,000-byte apns-topic: the client sends its header block (not Huffman-coded, so
        // about 40 KB) as HEADERS and two CONTINUATION frames of at most 16,384 bytes. The
        // server accepts header lists up to 128 KB.
        let server = try await NIOHTTP2PeerServer.start(.init(settings: PeerServerConfiguration.settings(maxHeaderListSize: 1 << 17)))
        let client = try client(port: server.port)
        let large = try notification(0, topic: String(repeating: "a", count: 40_000))
        let after = try notification(1)
        let results = try await bounded(.seconds(30), "a 40 KB header block and one after it") {
            [await client.send(large), await client.send(after)]
        }
        let allSucceeded = results.allSatisfy { $0.isSuccess }
        #expect(allSucceeded, "\(results)")
        let record = server.record
        expectDeliveredOnce([large, after], record)
        #expect(record.deliveries.map(\.topicLength).sorted() == ["com.example.app".utf8.count, 40_000])
        #expect(record.protocolErrors.isEmpty && record.connectionsAccepted == 1, "\(record.protocolErrors)")
        try await client.shutdown()
        await server.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func anAnswerSplitIntoContinuationFramesIsRead() async throws {
        // A 4 KB answer header block in frames of 1,000 bytes: HEADERS and four CONTINUATION
        // frames (hand-made below NIOHTTP2, which never sends CONTINUATION). Under the client's
        // 16 KB header list limit, so it must be put together and read: the echoed apns-id shows it.
        let server = try await NIOHTTP2PeerServer.start(.init(answerHeaders: .continuation(padding: 4000, fragmentSize: 1000)))
        let client = try client(port: server.port, retry: .never)
        let notifications = try (0..<2).map { try notification($0) }
        let results = try await bounded(.seconds(30), "two sends answered in CONTINUATION frames") {
            [await client.send(notifications[0]), await client.send(notifications[1])]
        }
        #expect(results.allSatisfy { $0.isSuccess }, "\(results)")
        #expect(results.map(\.apnsID) == notifications.map { $0.headers.id?.headerValue }, "\(results.map(\.apnsID))")
        #expect(server.record.connectionsAccepted == 1)
        try await client.shutdown()
        await server.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func aResponseHeaderListOverTheClientLimitFailsClearly() async throws {
        // A 40,000-byte field in HEADERS and two CONTINUATION frames of 16,384 bytes (the
        // client's frame size). The client announces SETTINGS_MAX_HEADER_LIST_SIZE 16384
        // (HTTP2FramingConfiguration's default, which APNsConnection keeps) and refuses the
        // list by design: the connection ends with COMPRESSION_ERROR and the send fails,
        // saying so; it does not hang or crash.
        let server = try await NIOHTTP2PeerServer.start(.init(answerHeaders: .continuation(padding: 40_000, fragmentSize: 16_384)))
        let client = try client(port: server.port, retry: .never)
        let sent = try notification(0)
        let result = try await bounded(.seconds(30), "a send answered with a 40 KB header") { await client.send(sent) }
        #expect(result.status == nil, "\(result)")
        if case .connectionLost(let why)? = result.failure {
            #expect(why.contains("could not be decoded"), "\(why)")
        } else {
            Issue.record("expected the connection to be lost over the header block: \(result)")
        }
        // The server did answer; the answer is what the client refused.
        #expect(server.record.deliveries.count == 1)
        try await client.shutdown()
        await server.stop()
    }

    // MARK: - Streams the server does not process

    @Test(.timeLimit(.minutes(1)))
    func goAwayBelowStreamsInFlightResendsTheRestExactlyOnce() async throws {
        // The first connection holds its answers until 10 streams are open, then says GOAWAY
        // with last stream 1: stream 1 is answered, streams 3 to 19 never processed.
        let server = try await NIOHTTP2PeerServer.start(.init(goAway: PeerServerConfiguration.GoAway(whenOpenStreams: 10, lastStreamID: 1)))
        let client = try client(port: server.port)
        let notifications = try (0..<10).map { try notification($0) }
        let results = try await bounded(.seconds(30), "10 sends across a GOAWAY") { try await client.sendAll(notifications) }
        // Resends of unprocessed streams are not attempts.
        #expect(results.count == 10 && results.allSatisfy { $0.isSuccess && $0.attempts == 1 }, "\(results.filter { !$0.isSuccess }.prefix(3))")
        let record = server.record
        #expect(record.goAwaysSent == 1 && record.connectionsAccepted >= 2, "connections \(record.connectionsAccepted)")
        // Nothing lost, nothing delivered twice; on the first connection only stream 1.
        expectDeliveredOnce(notifications, record)
        #expect(record.deliveries.filter { $0.connection == 0 }.map(\.streamID) == [1])
        try await client.shutdown()
        await server.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func refusedStreamsAreResentAndSucceed() async throws {
        let server = try await NIOHTTP2PeerServer.start(.init(refuseFirstStreams: 3))
        let client = try client(port: server.port)
        let notifications = try (0..<6).map { try notification($0) }
        let results = try await bounded(.seconds(30), "6 sends, 3 refused") { try await client.sendAll(notifications) }
        #expect(results.count == 6 && results.allSatisfy { $0.isSuccess && $0.attempts == 1 }, "\(results.filter { !$0.isSuccess }.prefix(3))")
        let record = server.record
        #expect(record.refused == 3 && record.streamsOpened == 9, "refused \(record.refused), opened \(record.streamsOpened)")
        expectDeliveredOnce(notifications, record)
        try await client.shutdown()
        await server.stop()
    }

    // MARK: - PING from the server

    @Test(.timeLimit(.minutes(1)))
    func aServerPingIsAcknowledgedWithItsData() async throws {
        let data: UInt64 = 0x4845_5241_4C44_5047
        let server = try await NIOHTTP2PeerServer.start(.init(pingData: data))
        let client = try client(port: server.port)
        try await bounded(.seconds(30), "connecting") { try await client.connect() }
        let acknowledged = await eventually { !server.record.pingAcknowledgements.isEmpty }
        #expect(acknowledged, "no PING acknowledgement")
        #expect(server.record.pingAcknowledgements == [data])
        // The connection is still good for sending.
        let sent = try notification(0)
        let result = try await bounded(.seconds(30), "a send after the PING") { await client.send(sent) }
        #expect(result.isSuccess && server.record.connectionsAccepted == 1, "\(result)")
        try await client.shutdown()
        await server.stop()
    }

    // MARK: - Servers that do not answer

    @Test(.timeLimit(.minutes(1)))
    func aServerThatNeverAnswersTimesOut() async throws {
        let server = try await NIOHTTP2PeerServer.start(.init(answer: .never))
        let client = try client(port: server.port, requestTimeout: .seconds(1), retry: .never)
        let sent = try notification(0)
        let result = try await bounded(.seconds(30), "a send that is never answered") { await client.send(sent) }
        #expect(result.failure == .timeout && result.status == nil && result.attempts == 1, "\(result)")
        #expect(result.latency < .seconds(5), "the 1 s timeout fired late: \(result.latency)")
        // The client gives the stream up: RST_STREAM CANCEL reaches the server.
        let reset = await eventually { server.record.resetsReceived.contains(.cancel) }
        #expect(reset, "resets received: \(server.record.resetsReceived)")
        #expect(server.record.deliveries.isEmpty && server.record.streamsOpened == 1)
        try await client.shutdown()
        await server.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func aServerThatNeverAcknowledgesSettingsIsBoundedByTheRequestTimeout() async throws {
        // The server's SETTINGS arrive, so the connection opens (the client has no timer on
        // the acknowledgement of its own SETTINGS, which RFC 9113 §6.5.3 leaves optional), and
        // then nothing: each attempt ends at the request timeout.
        let server = try await RawHTTP2PeerServer.start(.settingsWithoutAcknowledgement)
        let client = try client(
            port: server.port, requestTimeout: .seconds(1), connectTimeout: .seconds(2),
            retry: RetryPolicy(maximumAttempts: 2, initialBackoff: .milliseconds(5))
        )
        let sent = try notification(0)
        let start = ContinuousClock.now
        let result = try await bounded(.seconds(30), "a send to a server that never acknowledges SETTINGS") { await client.send(sent) }
        #expect(result.status == nil && result.failure == .timeout && result.attempts == 2, "\(result)")
        #expect(ContinuousClock.now - start < .seconds(15), "took \(ContinuousClock.now - start)")
        // The client did its part: its preface, its SETTINGS, the acknowledgement of the
        // server's, and the request's HEADERS.
        let record = server.record
        #expect(!record.prefaces.isEmpty && record.prefaces.allSatisfy { $0 }, "\(record.prefaces)")
        #expect(record.frames.contains(.init(type: 0x4, flags: 0)) && record.frames.contains(.init(type: 0x4, flags: 0x1)), "\(record.frames)")
        #expect(record.frames.contains { $0.type == 0x1 }, "no HEADERS: \(record.frames)")
        try await client.shutdown()
        await server.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func aServerThatSendsNoSettingsFailsTheConnectInTime() async throws {
        // TCP connects, then not a byte: the client stops waiting for SETTINGS at the connect
        // timeout, each attempt, and reports why.
        let server = try await RawHTTP2PeerServer.start(.silent)
        let client = try client(
            port: server.port, connectTimeout: .seconds(1), retry: RetryPolicy(maximumAttempts: 2, initialBackoff: .milliseconds(5))
        )
        let sent = try notification(0)
        let start = ContinuousClock.now
        let result = try await bounded(.seconds(30), "a send to a server that sends no SETTINGS") { await client.send(sent) }
        #expect(ContinuousClock.now - start < .seconds(15), "took \(ContinuousClock.now - start)")
        #expect(result.status == nil && result.attempts == 2, "\(result)")
        if case .connectionFailed(let why)? = result.failure {
            #expect(why.lowercased().contains("settings"), "\(why)")
        } else {
            Issue.record("expected a failed connection: \(result)")
        }
        // The client did connect (each attempt) and sent its preface; only the server was silent.
        let record = server.record
        #expect(record.connectionsAccepted >= 1 && record.prefaces.count == record.connectionsAccepted && record.prefaces.allSatisfy { $0 }, "\(record)")
        try await client.shutdown()
        await server.stop()
    }
}

extension APNsClient {
    /// Sends every notification with the bulk API and collects the results.
    fileprivate func sendAll(_ notifications: [PushNotification]) async throws -> [APNsResult] {
        var results: [APNsResult] = []
        for try await result in send(all: notifications.async) { results.append(result) }
        return results
    }
}
