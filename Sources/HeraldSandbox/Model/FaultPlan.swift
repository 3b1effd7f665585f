import HeraldCore

/// Failures the sandbox injects so clients can be tested against a misbehaving APNs.
///
/// Statuses come first from ``script`` (in order, one per request), then at random by ``rates``.
/// 429 answers `TooManyRequests`, 500 `InternalServerError`, 503 `ServiceUnavailable`.
public struct FaultPlan: Sendable, Hashable, Codable {
    /// Statuses to answer to the next requests, one each, before anything else.
    public var script: [Int]
    /// Probability (0…1) of answering each status, per request.
    public var rates: [String: Double]
    /// Added to every answer, in milliseconds.
    public var latencyMilliseconds: Int
    /// Send GOAWAY (reason `Shutdown`) on a connection after it has carried this many streams.
    public var goAwayAfterStreams: Int?
    /// Close a connection abruptly (no GOAWAY) after it has carried this many streams.
    public var resetAfterStreams: Int?

    public init(
        script: [Int] = [], rates: [String: Double] = [:], latencyMilliseconds: Int = 0,
        goAwayAfterStreams: Int? = nil, resetAfterStreams: Int? = nil
    ) {
        self.script = script
        self.rates = rates
        self.latencyMilliseconds = latencyMilliseconds
        self.goAwayAfterStreams = goAwayAfterStreams
        self.resetAfterStreams = resetAfterStreams
    }

    /// The statuses a fault may answer, with their reasons.
    public static let faultReasons: [Int: APNsReason] = [
        429: .tooManyRequests, 500: .internalServerError, 503: .serviceUnavailable,
    ]

    /// True when nothing is injected.
    public var isEmpty: Bool {
        script.isEmpty && rates.values.allSatisfy { $0 <= 0 } && latencyMilliseconds == 0
            && goAwayAfterStreams == nil && resetAfterStreams == nil
    }

    /// Checks statuses and rates, saying what is allowed.
    public func validate() throws(SandboxError) {
        for status in script where Self.faultReasons[status] == nil {
            throw .invalid("fault script status \(status) is not one of 429, 500, 503")
        }
        for (status, rate) in rates {
            guard let code = Int(status), Self.faultReasons[code] != nil else {
                throw .invalid("fault rate for '\(status)': only 429, 500 and 503 can be injected")
            }
            guard (0...1).contains(rate) else { throw .invalid("fault rate \(rate) for \(status) is outside 0…1") }
        }
        guard latencyMilliseconds >= 0, latencyMilliseconds <= 60_000 else {
            throw .invalid("latency \(latencyMilliseconds) ms is outside 0…60000")
        }
        if let count = goAwayAfterStreams, count < 1 { throw .invalid("goAwayAfterStreams must be at least 1") }
        if let count = resetAfterStreams, count < 1 { throw .invalid("resetAfterStreams must be at least 1") }
    }
}

