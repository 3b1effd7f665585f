import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2
import Testing

@testable import HeraldHTTP2

/// The connection state machine alone, without a channel: RFC 9113's MUSTs for a receiver, from
/// sections 4 to 8, each as frames in and the error (or silence) out, in both roles.
@Suite("HTTP/2 state machine, RFC 9113 §4–8")
struct StateMachineTests {
    /// What the machine did with the frames of a case.
    enum Outcome: Equatable, CustomStringConvertible {
        /// A connection error: GOAWAY with this code.
        case connectionError(UInt32)
        /// A stream error: RST_STREAM with this code on this stream; the connection goes on.
        case streamError(stream: Int32, code: UInt32)
        /// Neither: the frames were taken (or ignored).
        case accepted

        var description: String {
            switch self {
            case .connectionError(let code): "connection error \(code)"
            case .streamError(let stream, let code): "stream \(stream) error \(code)"
            case .accepted: "accepted"
            }
        }
    }

    /// A machine past its preface and SETTINGS exchange. A server has stream 1 open (a request
    /// whose body has not ended); a client has sent requests on streams 1 and 3.
    static func connected(_ role: HTTP2FramingHandler.Role) throws -> HTTP2ConnectionStateMachine {
        var machine = HTTP2ConnectionStateMachine(role: role, configuration: HTTP2FramingConfiguration(maxConcurrentStreams: 10))
        machine.start()
        var delivered: [HTTP2Frame] = []
        var bytes = FrameBytes()
        var input = role == .server ? FrameBytes.preface : ByteBuffer()
        var settings = FrameBytes.settings()
        var ack = FrameBytes.frame(FrameType.settings, flags: FrameFlag.ack)
        input.writeBuffer(&settings)
        input.writeBuffer(&ack)
        if role == .server {
            var request = bytes.headers(stream: 1, FrameBytes.request)
            input.writeBuffer(&request)
        } else {
            let request: HPACKHeaders = [":method": "POST", ":scheme": "https", ":path": "/3/device/aa", ":authority": "localhost"]
            machine.write(HTTP2Frame(streamID: 1, payload: .headers(.init(headers: request))), promise: nil)
            machine.write(HTTP2Frame(streamID: 3, payload: .headers(.init(headers: request, endStream: true))), promise: nil)
        }
        machine.receive(input)
        while try machine.readNextFrame(into: &delivered) {}
        _ = machine.takeOutbound()
        try #require(!machine.finished && machine.sawSettings)
        return machine
    }

    /// Feeds `frames` to a connected machine and says what it did.
    static func outcome(_ role: HTTP2FramingHandler.Role, _ frames: [ByteBuffer]) throws -> Outcome {
        var machine = try connected(role)
        var delivered: [HTTP2Frame] = []
        for var frame in frames {
            var input = ByteBuffer()
            input.writeBuffer(&frame)
            machine.receive(input)
            do {
                while try machine.readNextFrame(into: &delivered) {}
            } catch {
                return .connectionError(UInt32(error.code.networkCode))
            }
        }
        var decoder = FrameDecoder()
        decoder.maxFrameSize = 1 << 24
        if let bytes = machine.takeOutbound().bytes { decoder.append(bytes) }
        while let (header, payload) = try? decoder.nextFrame() {
            if header.type == FrameType.goAway {
                return .connectionError(payload.getInteger(at: payload.readerIndex + 4, as: UInt32.self)!)
            }
            if header.type == FrameType.rstStream {
                return .streamError(stream: Int32(header.streamID), code: payload.getInteger(at: payload.readerIndex, as: UInt32.self)!)
            }
        }
        return .accepted
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var rule: String
        var roles: [HTTP2FramingHandler.Role]
        var frames: @Sendable () -> [ByteBuffer]
        var expected: Outcome
        var testDescription: String { rule }
    }

    static func frame(_ type: UInt8, flags: UInt8 = 0, stream: Int32 = 0, _ payload: [UInt8] = []) -> ByteBuffer {
        FrameBytes.frame(type, flags: flags, stream: stream, payload: payload)
    }

    static let both: [HTTP2FramingHandler.Role] = [.server, .client]
    static let protocolError: UInt32 = 0x1
    static let flowControlError: UInt32 = 0x3
    static let streamClosed: UInt32 = 0x5
    static let frameSizeError: UInt32 = 0x6
    static let compressionError: UInt32 = 0x9

    static let cases: [Case] = [
        Case(rule: "§4.1 a frame of an unknown type is ignored", roles: both, frames: { [frame(0x42, stream: 1, [1, 2, 3])] }, expected: .accepted),
        Case(rule: "§4.2 a frame above SETTINGS_MAX_FRAME_SIZE is a FRAME_SIZE_ERROR", roles: both,
             frames: { [frame(FrameType.data, stream: 1, Array(repeating: 0, count: 16_385))] }, expected: .connectionError(frameSizeError)),
        Case(rule: "§4.3 a header block that does not decode is a COMPRESSION_ERROR", roles: [.server],
             frames: { [frame(FrameType.headers, flags: FrameFlag.endHeaders, stream: 5, [0xff, 0xff, 0xff, 0xff, 0xff])] }, expected: .connectionError(compressionError)),
        Case(rule: "§4.3 another frame inside a header block is a PROTOCOL_ERROR", roles: [.server],
             frames: { [frame(FrameType.headers, stream: 5, [0x82]), frame(FrameType.ping, [0, 0, 0, 0, 0, 0, 0, 0])] }, expected: .connectionError(protocolError)),
        Case(rule: "§5.1 DATA on an idle stream is a PROTOCOL_ERROR", roles: [.server],
             frames: { [frame(FrameType.data, stream: 9, [1])] }, expected: .connectionError(protocolError)),
        Case(rule: "§5.1 RST_STREAM on an idle stream is a PROTOCOL_ERROR", roles: both,
             frames: { [frame(FrameType.rstStream, stream: 41, [0, 0, 0, 8])] }, expected: .connectionError(protocolError)),
        Case(rule: "§5.1 WINDOW_UPDATE on an idle stream is a PROTOCOL_ERROR", roles: both,
             frames: { [FrameBytes.windowUpdate(stream: 41, increment: 1)] }, expected: .connectionError(protocolError)),
        Case(rule: "§5.1 DATA after END_STREAM (half-closed remote) is STREAM_CLOSED", roles: [.server],
             frames: { [frame(FrameType.data, flags: FrameFlag.endStream, stream: 1, [1]), frame(FrameType.data, stream: 1, [2])] },
             expected: .streamError(stream: 1, code: streamClosed)),
        Case(rule: "§5.1.1 a stream id below the last one opened is a PROTOCOL_ERROR", roles: [.server], frames: {
            var bytes = FrameBytes()
            return [bytes.headers(stream: 7, FrameBytes.request, endStream: true), bytes.headers(stream: 5, FrameBytes.request, endStream: true)]
        }, expected: .connectionError(protocolError)),
        Case(rule: "§5.1.1 an even stream id from a client is a PROTOCOL_ERROR", roles: [.server], frames: {
            var bytes = FrameBytes()
            return [bytes.headers(stream: 2, FrameBytes.request, endStream: true)]
        }, expected: .connectionError(protocolError)),
        Case(rule: "§5.1.2 a stream beyond SETTINGS_MAX_CONCURRENT_STREAMS is refused", roles: [.server], frames: {
            var bytes = FrameBytes()
            return stride(from: Int32(3), through: 23, by: 2).map { bytes.headers(stream: $0, FrameBytes.request) }
        }, expected: .streamError(stream: 21, code: 0x7)),
        Case(rule: "§6.1 DATA on stream 0 is a PROTOCOL_ERROR", roles: both,
             frames: { [frame(FrameType.data, stream: 0, [1])] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.1 padding as long as the frame is a PROTOCOL_ERROR", roles: [.server],
             frames: { [frame(FrameType.data, flags: FrameFlag.padded, stream: 1, [4, 1, 2, 3])] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.2 HEADERS on stream 0 is a PROTOCOL_ERROR", roles: both,
             frames: { [frame(FrameType.headers, flags: FrameFlag.endHeaders, stream: 0, [0x82])] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.3 PRIORITY on stream 0 is a PROTOCOL_ERROR", roles: both,
             frames: { [frame(FrameType.priority, stream: 0, [0, 0, 0, 1, 16])] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.3 PRIORITY of the wrong length is a stream FRAME_SIZE_ERROR", roles: both,
             frames: { [frame(FrameType.priority, stream: 1, [0, 0, 0, 1])] }, expected: .streamError(stream: 1, code: frameSizeError)),
        Case(rule: "§6.3 PRIORITY on an idle stream is allowed", roles: both,
             frames: { [frame(FrameType.priority, stream: 99, [0, 0, 0, 1, 16])] }, expected: .accepted),
        Case(rule: "§6.4 RST_STREAM on stream 0 is a PROTOCOL_ERROR", roles: both,
             frames: { [frame(FrameType.rstStream, stream: 0, [0, 0, 0, 8])] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.4 RST_STREAM of the wrong length is a FRAME_SIZE_ERROR", roles: both,
             frames: { [frame(FrameType.rstStream, stream: 1, [0, 0, 8])] }, expected: .connectionError(frameSizeError)),
        Case(rule: "§6.5 SETTINGS on a stream is a PROTOCOL_ERROR", roles: both,
             frames: { [frame(FrameType.settings, stream: 1)] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.5 a SETTINGS acknowledgement with a payload is a FRAME_SIZE_ERROR", roles: both,
             frames: { [frame(FrameType.settings, flags: FrameFlag.ack, [0, 3, 0, 0, 0, 1])] }, expected: .connectionError(frameSizeError)),
        Case(rule: "§6.5 SETTINGS whose length is not a multiple of 6 is a FRAME_SIZE_ERROR", roles: both,
             frames: { [frame(FrameType.settings, [0, 3, 0, 0, 1])] }, expected: .connectionError(frameSizeError)),
        Case(rule: "§6.5 an acknowledgement of no SETTINGS is a PROTOCOL_ERROR", roles: both,
             frames: { [frame(FrameType.settings, flags: FrameFlag.ack)] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.5.2 SETTINGS_ENABLE_PUSH other than 0 or 1 is a PROTOCOL_ERROR", roles: both,
             frames: { [FrameBytes.settings([(2, 2)])] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.5.2 a server enabling push is a PROTOCOL_ERROR", roles: [.client],
             frames: { [FrameBytes.settings([(2, 1)])] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.5.2 SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1 is a FLOW_CONTROL_ERROR", roles: both,
             frames: { [FrameBytes.settings([(4, 0x8000_0000)])] }, expected: .connectionError(flowControlError)),
        Case(rule: "§6.5.2 SETTINGS_MAX_FRAME_SIZE below 16384 is a PROTOCOL_ERROR", roles: both,
             frames: { [FrameBytes.settings([(5, 16_383)])] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.5.2 SETTINGS_MAX_FRAME_SIZE above 2^24-1 is a PROTOCOL_ERROR", roles: both,
             frames: { [FrameBytes.settings([(5, 16_777_216)])] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.5.2 an unknown setting is ignored", roles: both, frames: { [FrameBytes.settings([(0x99, 7)])] }, expected: .accepted),
        Case(rule: "§6.6 PUSH_PROMISE with push disabled is a PROTOCOL_ERROR", roles: both,
             frames: { [frame(FrameType.pushPromise, flags: FrameFlag.endHeaders, stream: 1, [0, 0, 0, 2, 0x82])] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.7 PING on a stream is a PROTOCOL_ERROR", roles: both,
             frames: { [frame(FrameType.ping, stream: 1, Array(repeating: 0, count: 8))] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.7 PING of the wrong length is a FRAME_SIZE_ERROR", roles: both,
             frames: { [frame(FrameType.ping, Array(repeating: 0, count: 7))] }, expected: .connectionError(frameSizeError)),
        Case(rule: "§6.8 GOAWAY on a stream is a PROTOCOL_ERROR", roles: both,
             frames: { [frame(FrameType.goAway, stream: 1, Array(repeating: 0, count: 8))] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.9 a connection WINDOW_UPDATE of 0 is a PROTOCOL_ERROR", roles: both,
             frames: { [FrameBytes.windowUpdate(stream: 0, increment: 0)] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.9 a stream WINDOW_UPDATE of 0 is a stream PROTOCOL_ERROR", roles: both,
             frames: { [FrameBytes.windowUpdate(stream: 1, increment: 0)] }, expected: .streamError(stream: 1, code: protocolError)),
        Case(rule: "§6.9 WINDOW_UPDATE of the wrong length is a FRAME_SIZE_ERROR", roles: both,
             frames: { [frame(FrameType.windowUpdate, stream: 0, [0, 0, 1])] }, expected: .connectionError(frameSizeError)),
        Case(rule: "§6.9.1 a connection window above 2^31-1 is a FLOW_CONTROL_ERROR", roles: both,
             frames: { [FrameBytes.windowUpdate(stream: 0, increment: 0x7fff_ffff)] }, expected: .connectionError(flowControlError)),
        Case(rule: "§6.9.1 a stream window above 2^31-1 is a stream FLOW_CONTROL_ERROR", roles: both,
             frames: { [FrameBytes.windowUpdate(stream: 1, increment: 0x7fff_ffff)] }, expected: .streamError(stream: 1, code: flowControlError)),
        Case(rule: "§6.10 CONTINUATION without a header block before it is a PROTOCOL_ERROR", roles: both,
             frames: { [frame(FrameType.continuation, flags: FrameFlag.endHeaders, stream: 1, [0x82])] }, expected: .connectionError(protocolError)),
        Case(rule: "§6.10 CONTINUATION on another stream is a PROTOCOL_ERROR", roles: [.server],
             frames: { [frame(FrameType.headers, stream: 5, [0x82]), frame(FrameType.continuation, flags: FrameFlag.endHeaders, stream: 7, [0x84])] },
             expected: .connectionError(protocolError)),
        Case(rule: "§8.1.1 a body shorter than content-length is a stream PROTOCOL_ERROR", roles: [.server], frames: {
            var bytes = FrameBytes()
            return [bytes.headers(stream: 5, FrameBytes.request + [("content-length", "3")]), frame(FrameType.data, flags: FrameFlag.endStream, stream: 5, [1])]
        }, expected: .streamError(stream: 5, code: protocolError)),
        Case(rule: "§8.1.1 an answer longer than its content-length is a stream PROTOCOL_ERROR", roles: [.client], frames: {
            var bytes = FrameBytes()
            return [bytes.headers(stream: 1, [(":status", "200"), ("content-length", "1")]), frame(FrameType.data, stream: 1, [1, 2])]
        }, expected: .streamError(stream: 1, code: protocolError)),
        Case(rule: "§8.4 a server opening a stream (push) is a PROTOCOL_ERROR", roles: [.client], frames: {
            var bytes = FrameBytes()
            return [bytes.headers(stream: 2, [(":status", "200")], endStream: true)]
        }, expected: .connectionError(protocolError)),
    ]

    @Test(arguments: cases)
    func receiverRule(_ rule: Case) throws {
        for role in rule.roles {
            let outcome = try Self.outcome(role, rule.frames())
            #expect(outcome == rule.expected, "\(role): \(rule.rule): got \(outcome)")
        }
    }

    @Test func aPingIsAnsweredWithItsDataAndAnAcknowledgementIsNot() throws {
        for role in Self.both {
            var machine = try Self.connected(role)
            var delivered: [HTTP2Frame] = []
            machine.receive(Self.frame(FrameType.ping, [1, 2, 3, 4, 5, 6, 7, 8]))
            machine.receive(Self.frame(FrameType.ping, flags: FrameFlag.ack, [9, 9, 9, 9, 9, 9, 9, 9]))
            while (try? machine.readNextFrame(into: &delivered)) == true {}
            var decoder = FrameDecoder()
            decoder.append(machine.takeOutbound().bytes ?? ByteBuffer())
            var pings: [[UInt8]] = []
            while let (header, payload) = try? decoder.nextFrame() {
                guard header.type == FrameType.ping else { continue }
                #expect(header.flags == FrameFlag.ack)
                pings.append(Array(payload.readableBytesView))
            }
            #expect(pings == [[1, 2, 3, 4, 5, 6, 7, 8]], "\(role)")
            #expect(delivered.count == 2)
        }
    }

    @Test func everySettingsFrameIsAcknowledged() throws {
        for role in Self.both {
            var machine = try Self.connected(role)
            var delivered: [HTTP2Frame] = []
            machine.receive(FrameBytes.settings([(1, 0)]))
            machine.receive(FrameBytes.settings([(4, 1000)]))
            while (try? machine.readNextFrame(into: &delivered)) == true {}
            var decoder = FrameDecoder()
            decoder.append(machine.takeOutbound().bytes ?? ByteBuffer())
            var acks = 0
            while let (header, _) = try? decoder.nextFrame() {
                if header.type == FrameType.settings, header.flags == FrameFlag.ack { acks += 1 }
            }
            #expect(acks == 2, "\(role)")
        }
    }

    @Test func goAwayRefusesTheClientsStreamsAboveItsLast() throws {
        var machine = try Self.connected(.client)
        var delivered: [HTTP2Frame] = []
        machine.receive(Self.frame(FrameType.goAway, [0, 0, 0, 1, 0, 0, 0, 0]))
        while (try? machine.readNextFrame(into: &delivered)) == true {}
        let refused = delivered.compactMap { frame -> HTTP2StreamID? in
            if case .rstStream(.refusedStream) = frame.payload { return frame.streamID }
            return nil
        }
        #expect(refused == [3])
        // No new stream opens after GOAWAY.
        let promise = EmbeddedEventLoop().makePromise(of: Void.self)
        machine.write(HTTP2Frame(streamID: 5, payload: .headers(.init(headers: [":method": "POST"]))), promise: promise)
        #expect(throws: HTTP2WriteError.self) { try promise.futureResult.wait() }
    }

    @Test func aWindowUpdateWakesOnlyTheStreamItIsFor() throws {
        // A server whose answers wait for window on 50 streams: a WINDOW_UPDATE for one stream
        // sends that stream's data alone, and one for a closed stream does nothing.
        var machine = HTTP2ConnectionStateMachine(role: .server, configuration: HTTP2FramingConfiguration(maxConcurrentStreams: 100))
        machine.start()
        var delivered: [HTTP2Frame] = []
        var bytes = FrameBytes()
        var input = FrameBytes.preface
        var settings = FrameBytes.settings([(4, 0)])  // every stream window starts at 0
        var ack = FrameBytes.frame(FrameType.settings, flags: FrameFlag.ack)
        input.writeBuffer(&settings)
        input.writeBuffer(&ack)
        for stream in stride(from: Int32(1), through: 99, by: 2) {
            var request = bytes.headers(stream: stream, FrameBytes.request, endStream: true)
            input.writeBuffer(&request)
        }
        machine.receive(input)
        while try machine.readNextFrame(into: &delivered) {}
        for stream in stride(from: 1, through: 99, by: 2) {
            machine.write(HTTP2Frame(streamID: HTTP2StreamID(stream), payload: .headers(.init(headers: [":status": "400"]))), promise: nil)
            machine.write(HTTP2Frame(streamID: HTTP2StreamID(stream), payload: .data(.init(data: .byteBuffer(ByteBuffer(string: "{}")), endStream: true))), promise: nil)
        }
        _ = machine.takeOutbound()
        #expect(machine.blockedStreams.count == 50)
        machine.receive(FrameBytes.windowUpdate(stream: 7, increment: 10))
        #expect(try machine.readNextFrame(into: &delivered))
        var decoder = FrameDecoder()
        decoder.append(machine.takeOutbound().bytes ?? ByteBuffer())
        var dataOn: [Int32] = []
        while let (header, _) = try decoder.nextFrame() {
            if header.type == FrameType.data { dataOn.append(Int32(header.streamID)) }
        }
        #expect(dataOn == [7])
        #expect(machine.blockedStreams.count == 49)
    }

    @Test func aConnectionErrorAfterAGracefulGoAwayDoesNotRaiseItsLastStream() throws {
        var machine = try Self.connected(.server)
        var delivered: [HTTP2Frame] = []
        machine.write(HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: 1, errorCode: .noError, opaqueData: nil)), promise: nil)
        var bytes = FrameBytes()
        machine.receive(bytes.headers(stream: 3, FrameBytes.request, endStream: true))
        while try machine.readNextFrame(into: &delivered) {}
        _ = machine.takeOutbound()
        machine.fail(HTTP2ConnectionError(.protocolError, "test"))
        var decoder = FrameDecoder()
        decoder.append(machine.takeOutbound().bytes ?? ByteBuffer())
        let (header, payload) = try #require(try decoder.nextFrame())
        #expect(header.type == FrameType.goAway)
        #expect(payload.getInteger(at: payload.readerIndex, as: UInt32.self) == 1)
    }
}
