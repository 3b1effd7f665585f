import Foundation
import Synchronization
import Testing
@testable import HeraldServer

/// Stopping `herald serve` is bounded: work that never finishes is left behind, not waited for.
@Suite("Shutdown bound")
struct ShutdownBoundTests {
    @Test("work that ignores cancellation is given up on at the limit; work that finishes is waited for")
    func workIsWaitedForUpToTheLimit() async {
        let started = ContinuousClock.now
        // Ignores cancellation: a blocking wait, as a hung close would be.
        let stuck = await HeraldServer.finishes(within: .milliseconds(200)) {
            let until = ContinuousClock.now + .seconds(3)
            while ContinuousClock.now < until { try? await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(!stuck)
        #expect(ContinuousClock.now - started < .seconds(2), "given up on at the limit, not after the work")

        let done = Mutex(false)
        let quick = await HeraldServer.finishes(within: .seconds(5)) { done.withLock { $0 = true } }
        #expect(quick && done.withLock { $0 })
    }
}
