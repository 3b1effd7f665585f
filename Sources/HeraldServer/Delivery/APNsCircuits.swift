import Foundation
import HeraldCore
import Synchronization

/// The circuit breakers of every route to APNs (an app and environment), shared by the workers;
/// `/ready` reports them.
final class APNsCircuits: Sendable {
    struct Route: Hashable, Sendable, Comparable {
        var appID: String
        var environment: APNsEnvironment

        static func < (lhs: Route, rhs: Route) -> Bool {
            (lhs.appID, lhs.environment.rawValue) < (rhs.appID, rhs.environment.rawValue)
        }
    }

    private let breakers = Mutex<[Route: CircuitBreaker]>([:])
    /// How many routes have a breaker: zero while every route answers, so the success of each
    /// delivery (the hot path) costs one atomic read.
    private let count = Atomic<Int>(0)

    func permit(_ route: Route, now: Date) -> CircuitBreaker.Permit {
        breakers.withLock { breakers in
            guard var breaker = breakers[route] else { return .send }
            defer { breakers[route] = breaker }
            return breaker.permit(now: now)
        }
    }

    func succeeded(_ route: Route) {
        guard count.load(ordering: .relaxed) > 0 else { return }
        breakers.withLock { breakers in
            guard breakers.removeValue(forKey: route) != nil else { return }  // closed, with nothing to remember
            count.store(breakers.count, ordering: .relaxed)
        }
    }

    /// Why the route's last failure failed, if it is failing.
    func lastReason(_ route: Route) -> String? {
        breakers.withLock { $0[route]?.lastReason }
    }

    /// Counts a failure (`probe`: of the probe's delivery); returns true when it opened the circuit.
    @discardableResult
    func failed(_ route: Route, reason: String, now: Date, probe: Bool = false) -> Bool {
        breakers.withLock { breakers in
            var breaker = breakers[route] ?? CircuitBreaker()
            defer {
                breakers[route] = breaker
                count.store(breakers.count, ordering: .relaxed)
            }
            return breaker.failed(reason: reason, now: now, jitter: Double.random(in: 0...1), probe: probe)
        }
    }

    /// The routes whose circuit is not closed, or that are failing, with their breakers.
    var unwell: [(route: Route, breaker: CircuitBreaker)] {
        breakers.withLock { breakers in breakers.map { ($0.key, $0.value) }.sorted { $0.route < $1.route } }
    }
}
