import Foundation
import HeraldCore
import Testing
@testable import HeraldServer

/// The value types behind delivery under faults: the circuit breaker, the retry schedule, the
/// send window and the wake signal.
@Suite("Delivery policies")
struct DeliveryPolicyTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("the circuit opens after five failures in a row, probes with one delivery, doubles its cool-down, and closes at the first answer")
    func circuitBreaker() {
        var breaker = CircuitBreaker()
        func fail(at seconds: TimeInterval, probe: Bool = false) -> Bool {
            breaker.failed(reason: "ConnectionFailed", now: now.addingTimeInterval(seconds), jitter: 0, probe: probe)
        }
        func permit(at seconds: TimeInterval) -> CircuitBreaker.Permit { breaker.permit(now: now.addingTimeInterval(seconds)) }
        for failure in 1...4 {
            let opened = fail(at: 0)
            #expect(!opened, "opened after \(failure)")
            let allowed = permit(at: 0)
            #expect(allowed == .send)
        }
        let opened = fail(at: 0)
        #expect(opened)
        var allowed = permit(at: 0)
        #expect(allowed == .wait(until: now.addingTimeInterval(1)))
        // Cool-down over: one probe, the others wait meanwhile.
        allowed = permit(at: 1)
        #expect(allowed == .probe)
        allowed = permit(at: 1.5)
        #expect(allowed == .wait(until: now.addingTimeInterval(2.5)))
        // A late failure of a delivery sent before the probe does not decide it; the probe's does:
        // open again, for twice as long.
        let late = fail(at: 1.8)
        #expect(!late)
        let probeFailed = fail(at: 2, probe: true)
        #expect(probeFailed)
        allowed = permit(at: 2)
        #expect(allowed == .wait(until: now.addingTimeInterval(4)))
        #expect(breaker.lastReason == "ConnectionFailed" && breaker.failingSince == now)
        allowed = permit(at: 4)
        #expect(allowed == .probe)
        breaker.succeeded()
        allowed = permit(at: 4)
        #expect(breaker.isClosed && breaker.consecutiveFailures == 0 && allowed == .send)
        // A probe that never reports back is replaced.
        for _ in 1...5 { _ = fail(at: 10) }
        allowed = permit(at: 11)
        #expect(allowed == .probe)
        allowed = permit(at: 11 + CircuitBreaker.probeTimeout)
        #expect(allowed == .probe)
        // The cool-down is bounded.
        var long = CircuitBreaker()
        for _ in 1...5 { long.failed(reason: "x", now: now, jitter: 1) }
        for round in 1...20 {
            _ = long.permit(now: now.addingTimeInterval(Double(round) * 100))
            long.failed(reason: "x", now: now.addingTimeInterval(Double(round) * 100), jitter: 1, probe: true)
        }
        guard case .open(let until) = long.state else {
            Issue.record("not open: \(long.state)")
            return
        }
        #expect(until.timeIntervalSince(now.addingTimeInterval(2000)) <= CircuitBreaker.maximumCoolDown * 1.2)
    }

    @Test("retries back off exponentially with jitter, up to the expiration or the maximum age")
    func retrySchedule() {
        let schedule = RetrySchedule(initialBackoff: 1, maximumBackoff: 300, maximumAge: 3600, immediateWindow: 300)
        #expect(schedule.nextAttempt(after: 1, queuedAt: now, expiration: .none, now: now, jitter: 1) == now.addingTimeInterval(1))
        #expect(schedule.nextAttempt(after: 1, queuedAt: now, expiration: .none, now: now, jitter: 0) == now.addingTimeInterval(0.5))
        #expect(schedule.nextAttempt(after: 4, queuedAt: now, expiration: .none, now: now, jitter: 1) == now.addingTimeInterval(8))
        #expect(schedule.nextAttempt(after: 30, queuedAt: now, expiration: .none, now: now, jitter: 1) == now.addingTimeInterval(300))
        // Not past the notification's expiration, nor the maximum age without one.
        #expect(schedule.nextAttempt(after: 4, queuedAt: now, expiration: .at(now.addingTimeInterval(5)), now: now, jitter: 1) == nil)
        #expect(schedule.nextAttempt(after: 1, queuedAt: now, expiration: .none, now: now.addingTimeInterval(3599.5), jitter: 1) == nil)
        // "Deliver now or never" is kept for the immediate window only.
        #expect(schedule.deadline(queuedAt: now, expiration: .immediately) == now.addingTimeInterval(300))
    }

    @Test("the send window hands out at most its size, waits for permits to come back, and gives up when told to")
    func sendWindow() async {
        let window = SendWindow(size: 10)
        #expect(await window.acquire(7))
        #expect(window.taken == 7)
        let stopped = await window.acquire(5) { true }
        #expect(!stopped && window.taken == 7)
        let waiting = Task { await window.acquire(5) }
        try? await Task.sleep(for: .milliseconds(20))
        window.release(4)
        #expect(await waiting.value)
        #expect(window.taken == 8)
    }

    @Test("a wake signal ends a wait at once; without one the wait lasts its timeout; cancellation ends it")
    func wakeSignal() async {
        let signal = WakeSignal()
        let started = ContinuousClock.now
        let waiter = Task { await signal.wait(timeout: .seconds(10)) }
        try? await Task.sleep(for: .milliseconds(50))
        signal.signal()
        await waiter.value
        #expect(ContinuousClock.now - started < .seconds(5))
        let timed = ContinuousClock.now
        await signal.wait(timeout: .milliseconds(50))
        #expect(ContinuousClock.now - timed >= .milliseconds(45))
        let cancelled = Task { await signal.wait(timeout: .seconds(10)) }
        cancelled.cancel()
        let cancelledAt = ContinuousClock.now
        await cancelled.value
        #expect(ContinuousClock.now - cancelledAt < .seconds(5))
    }
}
