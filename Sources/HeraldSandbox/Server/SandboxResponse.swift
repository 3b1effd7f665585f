import HeraldCore

/// What the sandbox answers to one request, and what it does to the connection afterwards.
struct SandboxResponse {
    var status: Int
    var apnsID: String
    var uniqueID: String?
    /// The JSON error body, if any.
    var body: [UInt8]?
    var reason: APNsReason?
    /// Close the connection with GOAWAY carrying this reason after answering.
    var goAway: APNsReason?
    /// Close the connection abruptly after answering (fault injection).
    var reset = false
    /// Answer after this many milliseconds (fault injection).
    var delayMilliseconds = 0
    /// Raise SETTINGS_MAX_CONCURRENT_STREAMS: the first valid provider token on this connection.
    var unlockStreams = false

    static func success(apnsID: String, uniqueID: String?) -> SandboxResponse {
        SandboxResponse(status: 200, apnsID: apnsID, uniqueID: uniqueID)
    }

    static func failure(_ reason: APNsReason, apnsID: String, timestamp: Int64? = nil) -> SandboxResponse {
        SandboxResponse(
            status: reason.status ?? 400, apnsID: apnsID,
            body: APNsErrorBody(reason: reason, timestamp: timestamp).serialized, reason: reason,
            goAway: reason.closesConnection ? reason : nil
        )
    }
}
