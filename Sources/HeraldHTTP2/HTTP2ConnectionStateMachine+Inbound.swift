import NIOCore
import NIOHPACK
import NIOHTTP2

extension HTTP2ConnectionStateMachine {
    /// Applies one frame read from the peer (RFC 9113 §6) and passes on what the layer above
    /// needs to see.
    mutating func process(_ header: FrameHeader, payload: ByteBuffer, into delivered: inout [HTTP2Frame]) throws(HTTP2ConnectionError) {
        if let partial = partialHeaderBlock, header.type != FrameType.continuation || header.streamID != partial.streamID {
            throw HTTP2ConnectionError(.protocolError, "a header block on stream \(partial.streamID) was interrupted before its END_HEADERS")
        }
        if !sawSettings, header.type != FrameType.settings || header.has(FrameFlag.ack) {
            throw HTTP2ConnectionError(.protocolError, "the first frame must be SETTINGS")
        }
        switch header.type {
        case FrameType.data:
            if header.length == 0, !header.has(FrameFlag.endStream) { try countEmptyFrame("DATA") } else { sequentialEmptyFrames = 0 }
            try readData(header, payload: payload, into: &delivered)
        case FrameType.headers:
            sequentialEmptyFrames = 0
            try readHeaders(header, payload: payload, into: &delivered)
        case FrameType.continuation:
            if header.length == 0, !header.has(FrameFlag.endHeaders) { try countEmptyFrame("CONTINUATION") }
            try readContinuation(header, payload: payload, into: &delivered)
        case FrameType.priority:
            try spendControlFrame("PRIORITY")
            guard header.streamID != .rootStream else { throw HTTP2ConnectionError(.protocolError, "PRIORITY on stream 0") }
            // A PRIORITY frame of the wrong size is a stream error (RFC 9113 §6.3).
            if header.length != 5 { try resetStream(header.streamID, code: .frameSizeError, into: &delivered) }
        case FrameType.rstStream:
            guard resets.spend() else {
                throw HTTP2ConnectionError(
                    .enhanceYourCalm, "more than \(resets.budget.count) RST_STREAM frames in \(resets.budget.window.nanoseconds / 1_000_000) ms"
                )
            }
            try readResetStream(header, payload: payload, into: &delivered)
        case FrameType.settings:
            if !header.has(FrameFlag.ack) { try spendControlFrame("SETTINGS") }
            try readSettings(header, payload: payload, into: &delivered)
        case FrameType.pushPromise:
            throw HTTP2ConnectionError(.protocolError, "PUSH_PROMISE: server push is disabled")
        case FrameType.ping:
            if !header.has(FrameFlag.ack) { try spendControlFrame("PING") }
            try readPing(header, payload: payload, into: &delivered)
        case FrameType.goAway: try readGoAway(header, payload: payload, into: &delivered)
        case FrameType.windowUpdate: try readWindowUpdate(header, payload: payload, into: &delivered)
        default:
            break  // Unknown frame types are ignored (RFC 9113 §4.1).
        }
    }

    /// Counts a frame that carries nothing (a flood of them costs CPU and does no work).
    private mutating func countEmptyFrame(_ kind: String) throws(HTTP2ConnectionError) {
        sequentialEmptyFrames += 1
        guard sequentialEmptyFrames <= configuration.maxSequentialEmptyFrames else {
            throw HTTP2ConnectionError(.enhanceYourCalm, "more than \(configuration.maxSequentialEmptyFrames) empty \(kind) frames in a row")
        }
    }

    /// Counts a SETTINGS, PING or PRIORITY frame against the control-frame budget.
    private mutating func spendControlFrame(_ kind: String) throws(HTTP2ConnectionError) {
        guard controlFrames.spend() else {
            let budget = controlFrames.budget
            throw HTTP2ConnectionError(
                .enhanceYourCalm, "more than \(budget.count) SETTINGS, PING and PRIORITY frames in \(budget.window.nanoseconds / 1_000_000) ms (the last a \(kind))"
            )
        }
    }

    /// Strips the padding (and, for HEADERS, the priority fields) from a frame's payload.
    private func content(of header: FrameHeader, payload: ByteBuffer, priorityFields: Bool) throws(HTTP2ConnectionError) -> ByteBuffer {
        var payload = payload
        var padding = 0
        if header.has(FrameFlag.padded) {
            guard let length = payload.readInteger(as: UInt8.self) else {
                throw HTTP2ConnectionError(.frameSizeError, "a padded frame without its pad length")
            }
            padding = Int(length)
        }
        if priorityFields, header.has(FrameFlag.priority) {
            guard payload.readableBytes >= 5 else { throw HTTP2ConnectionError(.frameSizeError, "HEADERS too short for its priority fields") }
            payload.moveReaderIndex(forwardBy: 5)
        }
        guard padding <= payload.readableBytes else {
            throw HTTP2ConnectionError(.protocolError, "padding of \(padding) bytes is longer than the frame")
        }
        return payload.getSlice(at: payload.readerIndex, length: payload.readableBytes - padding)!
    }

    private mutating func readData(_ header: FrameHeader, payload: ByteBuffer, into delivered: inout [HTTP2Frame]) throws(HTTP2ConnectionError) {
        let streamID = header.streamID
        guard streamID != .rootStream else { throw HTTP2ConnectionError(.protocolError, "DATA on stream 0") }
        // The whole frame, padding included, counts against the connection window.
        guard header.length <= connectionReceiveWindow else {
            throw HTTP2ConnectionError(.flowControlError, "DATA beyond the connection window")
        }
        connectionReceiveWindow -= header.length
        connectionReceiveUnacknowledged += header.length
        if connectionReceiveUnacknowledged >= configuration.connectionWindowSize / 2 {
            encodeWindowUpdate(streamID: .rootStream, increment: connectionReceiveUnacknowledged)
            connectionReceiveWindow += connectionReceiveUnacknowledged
            connectionReceiveUnacknowledged = 0
        }
        guard var state = streams[streamID] else {
            if isIdle(streamID) { throw HTTP2ConnectionError(.protocolError, "DATA on stream \(streamID), which was never opened") }
            // Late data on a stream this side reset, or on a stream above the last one a GOAWAY
            // said would be processed, is dropped; on any other closed stream it is a stream
            // error (RFC 9113 §6.1). That RST_STREAM is not counted against the budget: the
            // stream is remembered, so each closed stream costs one at most.
            if recentlyReset.contains(Int32(streamID)) { return }
            if let last = goAwaySent, isPeerInitiated(streamID), streamID > last { return }
            reset(streamID, code: .streamClosed, into: &delivered)
            return
        }
        if state.remoteClosed {
            try resetStream(streamID, code: .streamClosed, into: &delivered)
            return
        }
        guard header.length <= state.receiveWindow else {
            try resetStream(streamID, code: .flowControlError, into: &delivered)
            return
        }
        let data = try content(of: header, payload: payload, priorityFields: false)
        let endStream = header.has(FrameFlag.endStream)
        if let expected = state.expectedLength {
            // The body must be as long as content-length says (RFC 9113 §8.1.1).
            state.receivedLength += data.readableBytes
            if state.receivedLength > expected || (endStream && state.receivedLength != expected) {
                try resetStream(streamID, code: .protocolError, into: &delivered)
                return
            }
        }
        state.receiveWindow -= header.length
        state.receiveUnacknowledged += header.length
        if endStream {
            state.remoteClosed = true
        } else if state.receiveUnacknowledged >= Self.defaultWindow / 2 {
            encodeWindowUpdate(streamID: streamID, increment: state.receiveUnacknowledged)
            state.receiveWindow += state.receiveUnacknowledged
            state.receiveUnacknowledged = 0
        }
        streams[streamID] = state
        delivered.append(HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(data), endStream: endStream))))
        closeIfDone(streamID)
    }

    private mutating func readHeaders(_ header: FrameHeader, payload: ByteBuffer, into delivered: inout [HTTP2Frame]) throws(HTTP2ConnectionError) {
        guard header.streamID != .rootStream else { throw HTTP2ConnectionError(.protocolError, "HEADERS on stream 0") }
        let fragment = try content(of: header, payload: payload, priorityFields: true)
        let endStream = header.has(FrameFlag.endStream)
        if header.has(FrameFlag.endHeaders) {
            try readHeaderBlock(fragment, streamID: header.streamID, endStream: endStream, into: &delivered)
        } else {
            partialHeaderBlock = PartialHeaderBlock(streamID: header.streamID, endStream: endStream, block: fragment)
        }
    }

    private mutating func readContinuation(_ header: FrameHeader, payload: ByteBuffer, into delivered: inout [HTTP2Frame]) throws(HTTP2ConnectionError) {
        guard var partial = partialHeaderBlock else {
            throw HTTP2ConnectionError(.protocolError, "CONTINUATION without a header block before it")
        }
        guard partial.block.readableBytes + payload.readableBytes <= configuration.maxHeaderBlockSize else {
            throw HTTP2ConnectionError(.enhanceYourCalm, "a header block longer than \(configuration.maxHeaderBlockSize) bytes")
        }
        partial.continuations += 1
        guard partial.continuations <= configuration.maxContinuationFrames else {
            throw HTTP2ConnectionError(.enhanceYourCalm, "a header block spread over more than \(configuration.maxContinuationFrames) CONTINUATION frames")
        }
        partialHeaderBlock = nil
        var payload = payload
        partial.block.writeBuffer(&payload)
        if header.has(FrameFlag.endHeaders) {
            try readHeaderBlock(partial.block, streamID: partial.streamID, endStream: partial.endStream, into: &delivered)
        } else {
            partialHeaderBlock = partial
        }
    }

    /// Decodes a complete header block (always, so that HPACK stays in step) and opens, ends or
    /// ignores its stream.
    private mutating func readHeaderBlock(_ block: ByteBuffer, streamID: HTTP2StreamID, endStream: Bool, into delivered: inout [HTTP2Frame]) throws(HTTP2ConnectionError) {
        var block = block
        let headers: HPACKHeaders
        do {
            headers = try hpackDecoder.decodeHeaders(from: &block)
        } catch {
            throw HTTP2ConnectionError(.compressionError, "a header block could not be decoded: \(error)")
        }
        let frame = HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: endStream)))
        if var state = streams[streamID] {
            if state.remoteClosed {
                try resetStream(streamID, code: .streamClosed, into: &delivered)
                return
            }
            if state.expectedLength == nil, !state.sawHeaders {
                // The first header block of a stream this side opened: the peer's answer.
                state.expectedLength = Self.contentLength(in: headers)
            }
            state.sawHeaders = true
            if endStream, let expected = state.expectedLength, state.receivedLength != expected {
                try resetStream(streamID, code: .protocolError, into: &delivered)
                return
            }
            if endStream { state.remoteClosed = true }
            streams[streamID] = state
            delivered.append(frame)
            closeIfDone(streamID)
            return
        }
        guard isPeerInitiated(streamID) else {
            if isIdle(streamID) { throw HTTP2ConnectionError(.protocolError, "HEADERS on stream \(streamID), which this side never opened") }
            return  // An answer on a stream this side reset or already answered: dropped.
        }
        guard streamID > highestPeerStreamID else {
            // Frames the peer sent before it saw this side's RST_STREAM are ignored; otherwise a
            // stream id went back or was used again (RFC 9113 §5.1.1).
            if recentlyReset.contains(Int32(streamID)) { return }
            throw HTTP2ConnectionError(
                .protocolError, "HEADERS on stream \(streamID), not above the last stream opened (\(highestPeerStreamID)): stream ids may not go back or be used again"
            )
        }
        guard role == .server else { throw HTTP2ConnectionError(.protocolError, "HEADERS opening stream \(streamID): server push is disabled") }
        highestPeerStreamID = streamID
        if let last = goAwaySent, streamID > last { return }  // After GOAWAY, new streams are ignored.
        guard peerOpenCount < localMaxConcurrentStreams else {
            try refuse(streamID)
            return
        }
        let expectedLength = Self.contentLength(in: headers)
        if endStream, let expectedLength, expectedLength != 0 {
            try refuse(streamID, code: .protocolError)
            return
        }
        var state = HTTP2StreamState(receiveWindow: Self.defaultWindow, remoteClosed: endStream)
        state.expectedLength = expectedLength
        state.sawHeaders = true
        streams[streamID] = state
        peerOpenCount += 1
        delivered.append(frame)
        closeIfDone(streamID)
    }

    /// A new stream turned down before it opened (beyond the stream limit, or malformed): no
    /// state is kept, and the peer's late frames on it are ignored.
    private mutating func refuse(_ streamID: HTTP2StreamID, code: HTTP2ErrorCode = .refusedStream) throws(HTTP2ConnectionError) {
        try spendStreamError()
        encodeResetStream(streamID, code: code)
    }

    /// The value of the `content-length` field, if there is one. A value that is not a
    /// non-negative number comes back as -1, which no body matches, so the stream is malformed
    /// (RFC 9113 §8.1.1).
    static func contentLength(in headers: HPACKHeaders) -> Int? {
        for (name, value, _) in headers where name == "content-length" {
            guard let length = Int(value), length >= 0 else { return -1 }
            return length
        }
        return nil
    }

    private mutating func readResetStream(_ header: FrameHeader, payload: ByteBuffer, into delivered: inout [HTTP2Frame]) throws(HTTP2ConnectionError) {
        guard header.streamID != .rootStream else { throw HTTP2ConnectionError(.protocolError, "RST_STREAM on stream 0") }
        guard header.length == 4 else { throw HTTP2ConnectionError(.frameSizeError, "an RST_STREAM frame of \(header.length) bytes; it has 4") }
        guard !isIdle(header.streamID) else { throw HTTP2ConnectionError(.protocolError, "RST_STREAM on stream \(header.streamID), which was never opened") }
        guard streams[header.streamID] != nil else { return }
        let code = HTTP2ErrorCode(networkCode: Int(payload.getInteger(at: payload.readerIndex, as: UInt32.self)!))
        closeStream(header.streamID, failure: .streamClosed)
        delivered.append(HTTP2Frame(streamID: header.streamID, payload: .rstStream(code)))
    }

    private mutating func readSettings(_ header: FrameHeader, payload: ByteBuffer, into delivered: inout [HTTP2Frame]) throws(HTTP2ConnectionError) {
        guard header.streamID == .rootStream else { throw HTTP2ConnectionError(.protocolError, "SETTINGS on stream \(header.streamID)") }
        if header.has(FrameFlag.ack) {
            guard header.length == 0 else { throw HTTP2ConnectionError(.frameSizeError, "a SETTINGS acknowledgement with a payload") }
            guard !unacknowledgedStreamLimits.isEmpty else { throw HTTP2ConnectionError(.protocolError, "a SETTINGS acknowledgement for no SETTINGS") }
            if let limit = unacknowledgedStreamLimits.removeFirst() { acknowledgedStreamLimit = limit }
            localMaxConcurrentStreams = unacknowledgedStreamLimits.reduce(acknowledgedStreamLimit) { min($0, $1 ?? $0) }
            delivered.append(HTTP2Frame(streamID: .rootStream, payload: .settings(.ack)))
            return
        }
        guard header.length % 6 == 0 else { throw HTTP2ConnectionError(.frameSizeError, "a SETTINGS frame of \(header.length) bytes, not a multiple of 6") }
        var payload = payload
        var settings: HTTP2Settings = []
        while let code = payload.readInteger(as: UInt16.self), let value = payload.readInteger(as: UInt32.self) {
            let value = Int(value)
            switch code {
            case 1:
                headerEncoder.setPeerTableSize(value)
            case 2:
                guard value <= 1 else { throw HTTP2ConnectionError(.protocolError, "SETTINGS_ENABLE_PUSH of \(value); it is 0 or 1") }
                guard role == .server || value == 0 else { throw HTTP2ConnectionError(.protocolError, "a server may not enable push") }
            case 3:
                peerMaxConcurrentStreams = value
            case 4:
                guard value <= Self.maxWindow else {
                    throw HTTP2ConnectionError(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE of \(value) is above 2^31-1")
                }
                // Stream windows are kept relative to this value, so nothing is walked unless a
                // stream might overflow (RFC 9113 §6.9.2); then the bound is made exact.
                if maxSendWindowOffset + value > Self.maxWindow {
                    maxSendWindowOffset = streams.values.reduce(0) { max($0, $1.sendWindowOffset) }
                    guard maxSendWindowOffset + value <= Self.maxWindow else {
                        throw HTTP2ConnectionError(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE of \(value) takes a stream's window above 2^31-1")
                    }
                }
                peerInitialWindow = value
            case 5:
                guard (16_384...16_777_215).contains(value) else {
                    throw HTTP2ConnectionError(.protocolError, "SETTINGS_MAX_FRAME_SIZE of \(value); it is 16384 to 16777215")
                }
                peerMaxFrameSize = value
            default:
                break
            }
            settings.append(HTTP2Setting(parameter: HTTP2SettingsParameter(extensionSetting: Int(code)), value: value))
        }
        sawSettings = true
        outbound.writeFrameHeader(length: 0, type: FrameType.settings, flags: FrameFlag.ack, streamID: .rootStream)
        controlFramesInOutbound += 1
        delivered.append(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings(settings))))
        sendQueuedData()
        openPendingStreams()
    }

    private mutating func readPing(_ header: FrameHeader, payload: ByteBuffer, into delivered: inout [HTTP2Frame]) throws(HTTP2ConnectionError) {
        guard header.streamID == .rootStream else { throw HTTP2ConnectionError(.protocolError, "PING on stream \(header.streamID)") }
        guard header.length == 8 else { throw HTTP2ConnectionError(.frameSizeError, "a PING frame of \(header.length) bytes; it has 8") }
        let value = payload.getInteger(at: payload.readerIndex, as: UInt64.self)!
        let ack = header.has(FrameFlag.ack)
        if !ack { encodePing(value, ack: true) }
        delivered.append(HTTP2Frame(streamID: .rootStream, payload: .ping(HTTP2PingData(withInteger: value), ack: ack)))
    }

    private mutating func readGoAway(_ header: FrameHeader, payload: ByteBuffer, into delivered: inout [HTTP2Frame]) throws(HTTP2ConnectionError) {
        guard header.streamID == .rootStream else { throw HTTP2ConnectionError(.protocolError, "GOAWAY on stream \(header.streamID)") }
        guard header.length >= 8 else { throw HTTP2ConnectionError(.frameSizeError, "a GOAWAY frame of \(header.length) bytes; it has at least 8") }
        var payload = payload
        let lastStreamID = HTTP2StreamID(Int32(payload.readInteger(as: UInt32.self)! & 0x7FFF_FFFF))
        let code = HTTP2ErrorCode(networkCode: Int(payload.readInteger(as: UInt32.self)!))
        goAwayReceived = min(goAwayReceived ?? lastStreamID, lastStreamID)
        let frame = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: lastStreamID, errorCode: code, opaqueData: payload.readableBytes > 0 ? payload : nil))
        delivered.append(frame)
        // Streams still waiting to open never will on this connection, and this side's streams
        // above the last one were not processed: both are refused, so the layer above resends
        // them elsewhere.
        let waiting = pendingOpens
        pendingOpens.removeAll()
        for open in waiting {
            for entry in open.frames { entry.promise?.fail(HTTP2WriteError.streamNotOpened) }
            delivered.append(HTTP2Frame(streamID: open.streamID, payload: .rstStream(.refusedStream)))
        }
        for streamID in streams.keys.sorted() where !isPeerInitiated(streamID) && streamID > lastStreamID {
            closeStream(streamID, failure: .streamNotOpened)
            delivered.append(HTTP2Frame(streamID: streamID, payload: .rstStream(.refusedStream)))
        }
    }

    private mutating func readWindowUpdate(_ header: FrameHeader, payload: ByteBuffer, into delivered: inout [HTTP2Frame]) throws(HTTP2ConnectionError) {
        guard header.length == 4 else { throw HTTP2ConnectionError(.frameSizeError, "a WINDOW_UPDATE frame of \(header.length) bytes; it has 4") }
        let increment = Int(payload.getInteger(at: payload.readerIndex, as: UInt32.self)! & 0x7FFF_FFFF)
        let streamID = header.streamID
        if streamID == .rootStream {
            guard increment > 0 else { throw HTTP2ConnectionError(.protocolError, "a connection WINDOW_UPDATE of 0") }
            let wasSpent = connectionSendWindow <= 0
            connectionSendWindow += increment
            guard connectionSendWindow <= Self.maxWindow else { throw HTTP2ConnectionError(.flowControlError, "the connection window went above 2^31-1") }
            // Blocked streams wait for their own windows unless the connection's was spent.
            if wasSpent { sendQueuedData() }
        } else if var state = streams[streamID] {
            state.sendWindowOffset += increment
            guard increment > 0 else {
                try resetStream(streamID, code: .protocolError, into: &delivered)
                return
            }
            guard state.sendWindowOffset + peerInitialWindow <= Self.maxWindow else {
                try resetStream(streamID, code: .flowControlError, into: &delivered)
                return
            }
            maxSendWindowOffset = max(maxSendWindowOffset, state.sendWindowOffset)
            streams[streamID] = state
            sendQueuedData(on: streamID)
        } else if isIdle(streamID) {
            throw HTTP2ConnectionError(.protocolError, "WINDOW_UPDATE on stream \(streamID), which was never opened")
        }
        // On a closed stream: nothing to do (RFC 9113 §6.9).
    }

    /// A stream error caused by the peer: RST_STREAM to the peer, and an inbound RST_STREAM to
    /// the layer above (if the stream was open) so that it forgets the stream too. Too many in
    /// a window end the connection.
    mutating func resetStream(_ streamID: HTTP2StreamID, code: HTTP2ErrorCode, into delivered: inout [HTTP2Frame]) throws(HTTP2ConnectionError) {
        try spendStreamError()
        reset(streamID, code: code, into: &delivered)
    }

    /// RST_STREAM without counting it against the stream-error budget.
    mutating func reset(_ streamID: HTTP2StreamID, code: HTTP2ErrorCode, into delivered: inout [HTTP2Frame]) {
        let wasOpen = streams[streamID] != nil
        closeStream(streamID, failure: .streamClosed)
        encodeResetStream(streamID, code: code)
        if wasOpen { delivered.append(HTTP2Frame(streamID: streamID, payload: .rstStream(code))) }
    }

    private mutating func spendStreamError() throws(HTTP2ConnectionError) {
        guard streamErrors.spend() else {
            let budget = streamErrors.budget
            throw HTTP2ConnectionError(.enhanceYourCalm, "more than \(budget.count) stream errors in \(budget.window.nanoseconds / 1_000_000) ms")
        }
    }
}
