import Foundation

/// Whether one route to APNs (an app and environment) is worth sending to: after a run of
/// failures that say APNs or the network is down (no answer, 500, 503; not 429, which is about
/// one device) the circuit opens, and
/// deliveries wait instead of hammering an unreachable server. When the cool-down ends, one
/// worker sends a single delivery as a probe: an answer closes the circuit and the backlog
/// drains; another failure opens it again for longer (1 s, 2 s, 4 s … up to 30 s).
struct CircuitBreaker: Sendable {
    enum State: Sendable, Hashable {
        case closed
        case open(until: Date)
        /// One probe is out since then.
        case probing(since: Date)
    }

    /// What a worker may do with the route's deliveries now.
    enum Permit: Sendable, Hashable {
        /// Send them.
        case send
        /// Send one, as a probe, and report how it went before sending the rest.
        case probe
        /// Put them back until then.
        case wait(until: Date)
    }

    /// Failures in a row, with no answer in between, that open the circuit.
    static let failureThreshold = 5
    /// A probe that has not reported back by then is taken as lost; another may go.
    static let probeTimeout: TimeInterval = 15
    static let maximumCoolDown: TimeInterval = 30

    private(set) var state = State.closed
    private(set) var consecutiveFailures = 0
    /// Openings since the last answer: the cool-down doubles with each.
    private(set) var openings = 0
    /// Why the last failure failed (a reason code).
    private(set) var lastReason: String?
    /// When the current run of failures began.
    private(set) var failingSince: Date?

    var isClosed: Bool { state == .closed }

    mutating func permit(now: Date) -> Permit {
        switch state {
        case .closed:
            return .send
        case .open(let until):
            guard now >= until else { return .wait(until: until) }
            state = .probing(since: now)
            return .probe
        case .probing(let since):
            guard now.timeIntervalSince(since) < Self.probeTimeout else {
                state = .probing(since: now)
                return .probe
            }
            return .wait(until: now.addingTimeInterval(1))
        }
    }

    /// APNs answered (whatever it answered that does not say it is unwell).
    mutating func succeeded() {
        state = .closed
        consecutiveFailures = 0
        openings = 0
        failingSince = nil
        lastReason = nil
    }

    /// A delivery got no answer, or one saying APNs is unwell (`probe`: the probe's). Returns
    /// true when this opened the circuit. A failure of a delivery sent before the probe (a late
    /// timeout) does not decide the probe. `jitter` (0…1) spreads the reopening of many routes.
    @discardableResult
    mutating func failed(reason: String, now: Date, jitter: Double, probe: Bool = false) -> Bool {
        consecutiveFailures += 1
        lastReason = reason
        if failingSince == nil { failingSince = now }
        let opens: Bool
        switch state {
        case .closed: opens = consecutiveFailures >= Self.failureThreshold
        case .probing: opens = probe
        case .open: opens = false
        }
        guard opens else { return false }
        openings += 1
        let coolDown = min(Self.maximumCoolDown, pow(2, Double(min(openings - 1, 10))))
        state = .open(until: now.addingTimeInterval(coolDown * (1 + 0.2 * jitter)))
        return true
    }
}
