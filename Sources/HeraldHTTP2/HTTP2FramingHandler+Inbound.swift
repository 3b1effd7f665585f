import NIOCore
import NIOHPACK
import NIOHTTP2

extension HTTP2FramingHandler {
    /// Applies one frame read from the peer (RFC 9113 §6) and passes on what the layer above
    /// needs to see.
    func process(_ header: FrameHeader, payload: ByteBuffer, context: ChannelHandlerContext) throws(HTTP2ConnectionError) {
        if let partial = partialHeaderBlock, header.type != FrameType.continuation || header.streamID != partial.streamID {
            throw HTTP2ConnectionError(.protocolError, "a header block on stream \(partial.streamID) was interrupted before its END_HEADERS")
        }
        if !sawSettings, header.type != FrameType.settings || header.has(FrameFlag.ack) {
            throw HTTP2ConnectionError(.protocolError, "the first frame must be SETTINGS")
        }
        switch header.type {
        case FrameType.data: try readData(header, payload: payload, context: context)
        case FrameType.headers: try readHeaders(header, payload: payload, context: context)
        case FrameType.continuation: try readContinuation(header, payload: payload, context: context)
        case FrameType.priority:
            guard header.streamID != .rootStream else { throw HTTP2ConnectionError(.protocolError, "PRIORITY on stream 0") }
            guard header.length == 5 else { throw HTTP2ConnectionError(.frameSizeError, "a PRIORITY frame of \(header.length) bytes; it has 5") }
        case FrameType.rstStream: try readResetStream(header, payload: payload, context: context)
        case FrameType.settings: try readSettings(header, payload: payload, context: context)
        case FrameType.pushPromise:
            throw HTTP2ConnectionError(.protocolError, "PUSH_PROMISE: server push is disabled")
        case FrameType.ping: try readPing(header, payload: payload, context: context)
        case FrameType.goAway: try readGoAway(header, payload: payload, context: context)
        case FrameType.windowUpdate: try readWindowUpdate(header, payload: payload, context: context)
        default:
            break  // Unknown frame types are ignored (RFC 9113 §4.1).
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

    private func readData(_ header: FrameHeader, payload: ByteBuffer, context: ChannelHandlerContext) throws(HTTP2ConnectionError) {
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
            return  // A stream closed or reset here: late data is dropped.
        }
        if state.remoteClosed {
            resetStream(streamID, code: .streamClosed, context: context)
            return
        }
        guard header.length <= state.receiveWindow else {
            resetStream(streamID, code: .flowControlError, context: context)
            return
        }
        let data = try content(of: header, payload: payload, priorityFields: false)
        let endStream = header.has(FrameFlag.endStream)
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
        context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(data), endStream: endStream)))))
        closeIfDone(streamID)
    }

    private func readHeaders(_ header: FrameHeader, payload: ByteBuffer, context: ChannelHandlerContext) throws(HTTP2ConnectionError) {
        guard header.streamID != .rootStream else { throw HTTP2ConnectionError(.protocolError, "HEADERS on stream 0") }
        let fragment = try content(of: header, payload: payload, priorityFields: true)
        let endStream = header.has(FrameFlag.endStream)
        if header.has(FrameFlag.endHeaders) {
            try readHeaderBlock(fragment, streamID: header.streamID, endStream: endStream, context: context)
        } else {
            partialHeaderBlock = PartialHeaderBlock(streamID: header.streamID, endStream: endStream, block: fragment)
        }
    }

    private func readContinuation(_ header: FrameHeader, payload: ByteBuffer, context: ChannelHandlerContext) throws(HTTP2ConnectionError) {
        guard var partial = partialHeaderBlock else {
            throw HTTP2ConnectionError(.protocolError, "CONTINUATION without a header block before it")
        }
        guard partial.block.readableBytes + payload.readableBytes <= Self.maxHeaderBlockSize else {
            throw HTTP2ConnectionError(.enhanceYourCalm, "a header block longer than \(Self.maxHeaderBlockSize) bytes")
        }
        partialHeaderBlock = nil
        var payload = payload
        partial.block.writeBuffer(&payload)
        if header.has(FrameFlag.endHeaders) {
            try readHeaderBlock(partial.block, streamID: partial.streamID, endStream: partial.endStream, context: context)
        } else {
            partialHeaderBlock = partial
        }
    }

    /// Decodes a complete header block (always, so that HPACK stays in step) and opens, ends or
    /// ignores its stream.
    private func readHeaderBlock(_ block: ByteBuffer, streamID: HTTP2StreamID, endStream: Bool, context: ChannelHandlerContext) throws(HTTP2ConnectionError) {
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
                resetStream(streamID, code: .streamClosed, context: context)
                return
            }
            if endStream { state.remoteClosed = true }
            streams[streamID] = state
            context.fireChannelRead(wrapInboundOut(frame))
            closeIfDone(streamID)
            return
        }
        guard isPeerInitiated(streamID) else {
            if isIdle(streamID) { throw HTTP2ConnectionError(.protocolError, "HEADERS on stream \(streamID), which this side never opened") }
            return  // An answer on a stream this side reset: dropped.
        }
        guard streamID > highestPeerStreamID else { return }  // A closed stream.
        guard role == .server else { throw HTTP2ConnectionError(.protocolError, "HEADERS opening stream \(streamID): server push is disabled") }
        highestPeerStreamID = streamID
        if let last = goAwaySent, streamID > last { return }  // After GOAWAY, new streams are ignored.
        guard peerOpenCount < localMaxConcurrentStreams else {
            encodeResetStream(streamID, code: .refusedStream)
            return
        }
        streams[streamID] = HTTP2StreamState(sendWindow: peerInitialWindow, receiveWindow: Self.defaultWindow, remoteClosed: endStream)
        peerOpenCount += 1
        context.fireChannelRead(wrapInboundOut(frame))
        closeIfDone(streamID)
    }

    private func readResetStream(_ header: FrameHeader, payload: ByteBuffer, context: ChannelHandlerContext) throws(HTTP2ConnectionError) {
        guard header.streamID != .rootStream else { throw HTTP2ConnectionError(.protocolError, "RST_STREAM on stream 0") }
        guard header.length == 4 else { throw HTTP2ConnectionError(.frameSizeError, "an RST_STREAM frame of \(header.length) bytes; it has 4") }
        guard !isIdle(header.streamID) else { throw HTTP2ConnectionError(.protocolError, "RST_STREAM on stream \(header.streamID), which was never opened") }
        guard streams[header.streamID] != nil else { return }
        let code = HTTP2ErrorCode(networkCode: Int(payload.getInteger(at: payload.readerIndex, as: UInt32.self)!))
        closeStream(header.streamID, failure: .streamClosed)
        context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: header.streamID, payload: .rstStream(code))))
    }

    private func readSettings(_ header: FrameHeader, payload: ByteBuffer, context: ChannelHandlerContext) throws(HTTP2ConnectionError) {
        guard header.streamID == .rootStream else { throw HTTP2ConnectionError(.protocolError, "SETTINGS on stream \(header.streamID)") }
        if header.has(FrameFlag.ack) {
            guard header.length == 0 else { throw HTTP2ConnectionError(.frameSizeError, "a SETTINGS acknowledgement with a payload") }
            guard !unacknowledgedStreamLimits.isEmpty else { throw HTTP2ConnectionError(.protocolError, "a SETTINGS acknowledgement for no SETTINGS") }
            if let limit = unacknowledgedStreamLimits.removeFirst() { localMaxConcurrentStreams = limit }
            context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: .rootStream, payload: .settings(.ack))))
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
                let delta = value - peerInitialWindow
                peerInitialWindow = value
                for streamID in Array(streams.keys) {
                    streams[streamID]!.sendWindow += delta
                    guard streams[streamID]!.sendWindow <= Self.maxWindow else {
                        throw HTTP2ConnectionError(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE took stream \(streamID)'s window above 2^31-1")
                    }
                }
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
        context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings(settings)))))
        sendQueuedData()
        openPendingStreams()
    }

    private func readPing(_ header: FrameHeader, payload: ByteBuffer, context: ChannelHandlerContext) throws(HTTP2ConnectionError) {
        guard header.streamID == .rootStream else { throw HTTP2ConnectionError(.protocolError, "PING on stream \(header.streamID)") }
        guard header.length == 8 else { throw HTTP2ConnectionError(.frameSizeError, "a PING frame of \(header.length) bytes; it has 8") }
        let value = payload.getInteger(at: payload.readerIndex, as: UInt64.self)!
        let ack = header.has(FrameFlag.ack)
        if !ack { encodePing(value, ack: true) }
        context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: .rootStream, payload: .ping(HTTP2PingData(withInteger: value), ack: ack))))
    }

    private func readGoAway(_ header: FrameHeader, payload: ByteBuffer, context: ChannelHandlerContext) throws(HTTP2ConnectionError) {
        guard header.streamID == .rootStream else { throw HTTP2ConnectionError(.protocolError, "GOAWAY on stream \(header.streamID)") }
        guard header.length >= 8 else { throw HTTP2ConnectionError(.frameSizeError, "a GOAWAY frame of \(header.length) bytes; it has at least 8") }
        var payload = payload
        let lastStreamID = HTTP2StreamID(Int32(payload.readInteger(as: UInt32.self)! & 0x7FFF_FFFF))
        let code = HTTP2ErrorCode(networkCode: Int(payload.readInteger(as: UInt32.self)!))
        goAwayReceived = min(goAwayReceived ?? lastStreamID, lastStreamID)
        let frame = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: lastStreamID, errorCode: code, opaqueData: payload.readableBytes > 0 ? payload : nil))
        context.fireChannelRead(wrapInboundOut(frame))
        // Streams still waiting to open never will on this connection, and this side's streams
        // above the last one were not processed: both are refused, so the layer above resends
        // them elsewhere.
        let waiting = pendingOpens
        pendingOpens.removeAll()
        for open in waiting {
            for entry in open.frames { entry.promise?.fail(HTTP2WriteError.streamNotOpened) }
            context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: open.streamID, payload: .rstStream(.refusedStream))))
        }
        for streamID in streams.keys.sorted() where !isPeerInitiated(streamID) && streamID > lastStreamID {
            closeStream(streamID, failure: .streamNotOpened)
            context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(.refusedStream))))
        }
    }

    private func readWindowUpdate(_ header: FrameHeader, payload: ByteBuffer, context: ChannelHandlerContext) throws(HTTP2ConnectionError) {
        guard header.length == 4 else { throw HTTP2ConnectionError(.frameSizeError, "a WINDOW_UPDATE frame of \(header.length) bytes; it has 4") }
        let increment = Int(payload.getInteger(at: payload.readerIndex, as: UInt32.self)! & 0x7FFF_FFFF)
        let streamID = header.streamID
        if streamID == .rootStream {
            guard increment > 0 else { throw HTTP2ConnectionError(.protocolError, "a connection WINDOW_UPDATE of 0") }
            connectionSendWindow += increment
            guard connectionSendWindow <= Self.maxWindow else { throw HTTP2ConnectionError(.flowControlError, "the connection window went above 2^31-1") }
        } else if var state = streams[streamID] {
            state.sendWindow += increment
            guard increment > 0 else {
                resetStream(streamID, code: .protocolError, context: context)
                return
            }
            guard state.sendWindow <= Self.maxWindow else {
                resetStream(streamID, code: .flowControlError, context: context)
                return
            }
            streams[streamID] = state
        } else if isIdle(streamID) {
            throw HTTP2ConnectionError(.protocolError, "WINDOW_UPDATE on stream \(streamID), which was never opened")
        }
        sendQueuedData()
    }

    /// A stream error: RST_STREAM to the peer, and an inbound RST_STREAM to the layer above so
    /// that it forgets the stream too.
    func resetStream(_ streamID: HTTP2StreamID, code: HTTP2ErrorCode, context: ChannelHandlerContext) {
        closeStream(streamID, failure: .streamClosed)
        encodeResetStream(streamID, code: code)
        context.fireChannelRead(wrapInboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(code))))
    }
}
