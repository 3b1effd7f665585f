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

    func permit(_ route: Route, now: Date) -> CircuitBreaker.Permit {
        breakers.withLock { breakers in
            guard var breaker = breakers[route] else { return .send }
            defer { breakers[route] = breaker }
            return breaker.permit(now: now)
        }
    }

    func succeeded(_ route: Route) {
        breakers.withLock { breakers in
            guard breakers[route] != nil else { return }
            breakers[route] = nil  // closed, with nothing to remember
        }
    }

    /// Counts a failure (`probe`: of the probe's delivery); returns true when it opened the circuit.
    @discardableResult
    func failed(_ route: Route, reason: String, now: Date, probe: Bool = false) -> Bool {
        breakers.withLock { breakers in
            var breaker = breakers[route] ?? CircuitBreaker()
            defer { breakers[route] = breaker }
            return breaker.failed(reason: reason, now: now, jitter: Double.random(in: 0...1), probe: probe)
        }
    }

    /// The routes whose circuit is not closed, or that are failing, with their breakers.
    var unwell: [(route: Route, breaker: CircuitBreaker)] {
        breakers.withLock { breakers in breakers.map { ($0.key, $0.value) }.sorted { $0.route < $1.route } }
    }
}
