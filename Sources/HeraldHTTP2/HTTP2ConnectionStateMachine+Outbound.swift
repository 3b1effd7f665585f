import NIOCore
import NIOHPACK
import NIOHTTP2

extension HTTP2ConnectionStateMachine {
    /// Takes a frame from the layer above: HEADERS and DATA open, wait for or go on a stream;
    /// the others are encoded as they are. The promise completes when the frame is written (or
    /// fails if it never will be).
    mutating func write(_ frame: HTTP2Frame, promise: EventLoopPromise<Void>?) {
        guard !finished else {
            promise?.fail(HTTP2WriteError.connectionClosed)
            return
        }
        switch frame.payload {
        case .headers, .data:
            writeStreamFrame(frame, promise: promise)
        case .rstStream(let code):
            writeResetStream(frame.streamID, code: code, promise: promise)
        case .settings(.settings(let settings)):
            let known = settings.compactMap { setting in setting.parameter.code.map { ($0, setting.value) } }
            outbound.writeFrameHeader(length: known.count * 6, type: FrameType.settings, streamID: .rootStream)
            var streamLimit: Int?
            for (code, value) in known {
                outbound.writeInteger(code)
                outbound.writeInteger(UInt32(truncatingIfNeeded: value))
                if code == 3 { streamLimit = value }
            }
            // A lower limit holds at once, a higher one once the peer acknowledges it.
            unacknowledgedStreamLimits.append(streamLimit)
            if let streamLimit { localMaxConcurrentStreams = min(localMaxConcurrentStreams, streamLimit) }
            append(promise)
        case .settings(.ack):
            outbound.writeFrameHeader(length: 0, type: FrameType.settings, flags: FrameFlag.ack, streamID: .rootStream)
            append(promise)
        case .ping(let data, let ack):
            encodePing(data.integer, ack: ack)
            append(promise)
        case .goAway(let lastStreamID, let code, let opaqueData):
            encodeGoAway(lastStreamID: lastStreamID, code: code, debugData: opaqueData.map { Array($0.readableBytesView) } ?? [])
            append(promise)
        case .windowUpdate(let increment):
            encodeWindowUpdate(streamID: frame.streamID, increment: increment)
            append(promise)
        default:
            promise?.fail(HTTP2WriteError.unsupportedFrame)
        }
    }

    /// HEADERS or DATA: opens the stream if it is a new one of this side, waits if the peer's
    /// stream limit is reached, respects flow control.
    mutating func writeStreamFrame(_ frame: HTTP2Frame, promise: EventLoopPromise<Void>?) {
        let streamID = frame.streamID
        if let index = pendingOpenIndex(of: streamID) {
            pendingOpens[index].frames.append((frame, promise))
            return
        }
        if streams[streamID] == nil, !isPeerInitiated(streamID), streamID > highestLocalStreamID {
            guard case .headers = frame.payload, role == .client, goAwayReceived == nil else {
                promise?.fail(HTTP2WriteError.streamNotOpened)
                return
            }
            guard localOpenCount < peerMaxConcurrentStreams, pendingOpens.isEmpty else {
                pendingOpens.append(PendingOpen(streamID: streamID, frames: [(frame, promise)]))
                return
            }
            openLocalStream(streamID)
        }
        guard var state = streams[streamID], !state.localClosed else {
            promise?.fail(HTTP2WriteError.streamClosed)
            return
        }
        switch frame.payload {
        case .headers(let headers):
            encodeHeaders(headers.headers, streamID: streamID, endStream: headers.endStream)
            append(promise)
            state.localClosed = headers.endStream
        case .data(let data):
            guard case .byteBuffer(let buffer) = data.data else {
                promise?.fail(HTTP2WriteError.unsupportedFrame)
                return
            }
            state.localClosed = data.endStream
            let allowed = min(connectionSendWindow, state.sendWindowOffset + peerInitialWindow)
            if state.queued.isEmpty, buffer.readableBytes == 0 || buffer.readableBytes <= allowed {
                encodeData(buffer, streamID: streamID, endStream: data.endStream)
                connectionSendWindow -= buffer.readableBytes
                state.sendWindowOffset -= buffer.readableBytes
                append(promise)
            } else {
                state.queued.append(QueuedData(buffer: buffer, endStream: data.endStream, promise: promise))
                if !blockedStreams.contains(streamID) { blockedStreams.append(streamID) }
                streams[streamID] = state
                sendQueuedData()
                return
            }
        default:
            promise?.fail(HTTP2WriteError.unsupportedFrame)
            return
        }
        streams[streamID] = state
        closeIfDone(streamID)
    }

    /// RST_STREAM from the layer above: a stream still waiting to open is dropped without a
    /// frame (it never existed for the peer); an open one is closed and reset.
    private mutating func writeResetStream(_ streamID: HTTP2StreamID, code: HTTP2ErrorCode, promise: EventLoopPromise<Void>?) {
        if let index = pendingOpenIndex(of: streamID) {
            for entry in pendingOpens.remove(at: index).frames { entry.promise?.fail(HTTP2WriteError.streamNotOpened) }
            promise?.succeed()
            return
        }
        guard !isIdle(streamID) else {
            promise?.succeed()
            return
        }
        closeStream(streamID, failure: .streamClosed)
        encodeResetStream(streamID, code: code)
        append(promise)
    }

    /// Where a stream waits to open, if it does. New streams (above the last waiting one) are
    /// told apart without a search, and the newest are searched first.
    private func pendingOpenIndex(of streamID: HTTP2StreamID) -> Int? {
        guard let last = pendingOpens.last, streamID <= last.streamID else { return nil }
        return pendingOpens.lastIndex { $0.streamID == streamID }
    }

    /// Opens streams that waited for the peer's limit, in order, while there is room.
    mutating func openPendingStreams() {
        while !pendingOpens.isEmpty, localOpenCount < peerMaxConcurrentStreams, goAwayReceived == nil {
            let open = pendingOpens.removeFirst()
            openLocalStream(open.streamID)
            for entry in open.frames { writeStreamFrame(entry.frame, promise: entry.promise) }
        }
    }

    mutating func openLocalStream(_ streamID: HTTP2StreamID) {
        streams[streamID] = HTTP2StreamState(receiveWindow: Self.defaultWindow)
        highestLocalStreamID = streamID
        localOpenCount += 1
    }

    /// Forgets a stream once both sides ended it and its data is out.
    mutating func closeIfDone(_ streamID: HTTP2StreamID) {
        if let state = streams[streamID], state.isDone { closeStream(streamID, failure: .streamClosed) }
    }

    /// Forgets a stream; DATA still queued on it fails with `failure`.
    mutating func closeStream(_ streamID: HTTP2StreamID, failure: HTTP2WriteError) {
        guard let state = streams.removeValue(forKey: streamID) else { return }
        for data in state.queued { data.promise?.fail(failure) }
        if isPeerInitiated(streamID) {
            peerOpenCount -= 1
        } else {
            localOpenCount -= 1
            if !pendingOpens.isEmpty { openPendingStreams() }
        }
    }

    /// Sends DATA held back by flow control, as far as the windows now allow: the blocked
    /// streams in the order they blocked, until the connection window is spent (so a peer's
    /// WINDOW_UPDATE costs the streams it unblocks, not every blocked one).
    mutating func sendQueuedData() {
        var index = 0
        while index < blockedStreams.count, connectionSendWindow > 0 {
            let streamID = blockedStreams[index]
            if drainQueuedData(on: streamID) {
                blockedStreams.remove(at: index)
                closeIfDone(streamID)
            } else {
                index += 1
            }
        }
    }

    /// Sends what one stream has queued, after a WINDOW_UPDATE for that stream alone.
    mutating func sendQueuedData(on streamID: HTTP2StreamID) {
        guard connectionSendWindow > 0, streams[streamID]?.queued.isEmpty == false, let index = blockedStreams.firstIndex(of: streamID) else { return }
        if drainQueuedData(on: streamID) {
            blockedStreams.remove(at: index)
            closeIfDone(streamID)
        }
    }

    /// Writes a stream's queued DATA as far as both windows allow; true once nothing is left
    /// queued on it (or the stream is gone).
    private mutating func drainQueuedData(on streamID: HTTP2StreamID) -> Bool {
        guard var state = streams[streamID] else { return true }
        while var first = state.queued.first {
            let allowed = min(connectionSendWindow, state.sendWindowOffset + peerInitialWindow)
            let count = first.buffer.readableBytes
            if count == 0 || count <= allowed {
                encodeData(first.buffer, streamID: streamID, endStream: first.endStream)
                append(first.promise)
                state.queued.removeFirst()
            } else if allowed > 0 {
                let part = first.buffer.readSlice(length: allowed)!
                encodeData(part, streamID: streamID, endStream: false)
                state.queued[0] = first
            } else {
                break
            }
            let sent = count <= allowed ? count : allowed
            connectionSendWindow -= sent
            state.sendWindowOffset -= sent
        }
        streams[streamID] = state
        return state.queued.isEmpty
    }

    mutating func append(_ promise: EventLoopPromise<Void>?) {
        if let promise { outboundPromises.append(promise) }
    }

    // MARK: Encoding

    /// HEADERS, followed by CONTINUATION frames if the block is larger than the peer's frame size.
    mutating func encodeHeaders(_ headers: HPACKHeaders, streamID: HTTP2StreamID, endStream: Bool) {
        let start = outbound.writerIndex
        outbound.writeRepeatingByte(0, count: FrameHeader.size)
        headerEncoder.encode(headers, into: &outbound)
        let length = outbound.writerIndex - start - FrameHeader.size
        let endStreamFlag = endStream ? FrameFlag.endStream : 0
        if length <= peerMaxFrameSize {
            outbound.setFrameHeader(at: start, length: length, type: FrameType.headers, flags: endStreamFlag | FrameFlag.endHeaders, streamID: streamID)
            return
        }
        var block = allocator.buffer(capacity: length)
        block.writeImmutableBuffer(outbound.getSlice(at: start + FrameHeader.size, length: length)!)
        outbound.moveWriterIndex(to: start)
        var first = true
        while block.readableBytes > 0 {
            let chunk = block.readSlice(length: min(peerMaxFrameSize, block.readableBytes))!
            let flags = (first ? endStreamFlag : 0) | (block.readableBytes == 0 ? FrameFlag.endHeaders : 0)
            outbound.writeFrameHeader(length: chunk.readableBytes, type: first ? FrameType.headers : FrameType.continuation, flags: flags, streamID: streamID)
            outbound.writeImmutableBuffer(chunk)
            first = false
        }
    }

    /// DATA frames no larger than the peer's frame size; END_STREAM on the last.
    mutating func encodeData(_ buffer: ByteBuffer, streamID: HTTP2StreamID, endStream: Bool) {
        var buffer = buffer
        repeat {
            let chunk = buffer.readSlice(length: min(peerMaxFrameSize, buffer.readableBytes))!
            let flags = endStream && buffer.readableBytes == 0 ? FrameFlag.endStream : 0
            outbound.writeFrameHeader(length: chunk.readableBytes, type: FrameType.data, flags: flags, streamID: streamID)
            outbound.writeImmutableBuffer(chunk)
        } while buffer.readableBytes > 0
    }

    // Control frames are counted until written (``maxQueuedControlFrames``).

    /// RST_STREAM; the stream's late frames from the peer are ignored from now on.
    mutating func encodeResetStream(_ streamID: HTTP2StreamID, code: HTTP2ErrorCode) {
        outbound.writeFrameHeader(length: 4, type: FrameType.rstStream, streamID: streamID)
        outbound.writeInteger(UInt32(code.networkCode))
        controlFramesInOutbound += 1
        recentlyReset.insert(Int32(streamID))
    }

    mutating func encodeWindowUpdate(streamID: HTTP2StreamID, increment: Int) {
        outbound.writeFrameHeader(length: 4, type: FrameType.windowUpdate, streamID: streamID)
        outbound.writeInteger(UInt32(increment))
        controlFramesInOutbound += 1
    }

    mutating func encodePing(_ value: UInt64, ack: Bool) {
        controlFramesInOutbound += 1
        outbound.writeFrameHeader(length: 8, type: FrameType.ping, flags: ack ? FrameFlag.ack : 0, streamID: .rootStream)
        outbound.writeInteger(value)
    }

    mutating func encodeGoAway(lastStreamID: HTTP2StreamID, code: HTTP2ErrorCode, debugData: [UInt8]) {
        goAwaySent = min(goAwaySent ?? lastStreamID, lastStreamID)
        outbound.writeFrameHeader(length: 8 + debugData.count, type: FrameType.goAway, streamID: .rootStream)
        outbound.writeInteger(UInt32(Int32(lastStreamID)))
        outbound.writeInteger(UInt32(code.networkCode))
        outbound.writeBytes(debugData)
    }
}
