import Foundation
import HeraldCore
import HeraldStore
import Logging
import ServiceLifecycle

/// Deletes what is no longer kept, a small batch per transaction, every
/// ``RetentionPolicy/interval``: what deleted apps left behind, notifications older than the
/// ``RetentionPolicy`` allows with their deliveries, and (every
/// ``RetentionPolicy/deviceSweepInterval``) each device's deliveries beyond
/// ``RetentionPolicy/perDevice``; and console sessions that ended. A store that fails is tried
/// again at the next interval.
final class HistoryRetention: Service, Sendable {
    private let store: any HeraldStore
    private let policy: RetentionPolicy
    private let clock: any WallClock
    private let logger: Logger

    init(store: any HeraldStore, policy: RetentionPolicy, clock: any WallClock, logger: Logger) {
        self.store = store
        self.policy = policy
        self.clock = clock
        self.logger = logger
    }

    func run() async throws {
        var lastSweep: ContinuousClock.Instant?
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: self.policy.interval) }
            guard !Task.isShuttingDownGracefully && !Task.isCancelled else { return }
            do {
                try await purgeDeletedApps()
                try await purgeOld()
                _ = try await store.purgeSessions(now: clock.now)
                if policy.perDevice != nil, lastSweep.map({ ContinuousClock.now - $0 >= policy.deviceSweepInterval }) ?? true {
                    lastSweep = .now
                    try await capDevices()
                }
            } catch {
                logger.warning("retention: the store failed; trying again later", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Deletes what deleted apps left (devices, notifications, deliveries), a batch at a time.
    @discardableResult
    func purgeDeletedApps() async throws -> Int {
        var total = 0
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let deleted = try await store.purgeDeletedApps(limit: policy.batch)
            total += deleted
            if deleted == 0 { break }
            try await Task.sleep(for: policy.pause)
        }
        if total > 0 { logger.info("deleted apps' rows removed", metadata: ["rows": "\(total)"]) }
        return total
    }

    /// Deletes history older than the policy's age, a batch at a time, until none is left.
    /// Returns the rows deleted.
    @discardableResult
    func purgeOld() async throws -> Int {
        guard let age = policy.maximumAge else { return 0 }
        let cutoff = clock.now.addingTimeInterval(-age)
        var total = 0
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let deleted = try await store.purgeHistory(before: cutoff, limit: policy.batch)
            total += deleted
            if deleted == 0 { break }
            try await Task.sleep(for: policy.pause)
        }
        if total > 0 { logger.info("retention: old history deleted", metadata: ["rows": "\(total)", "before": "\(cutoff)"]) }
        return total
    }

    /// Trims every device's history to the policy's cap, a page of devices at a time. Returns
    /// the rows deleted.
    @discardableResult
    func capDevices() async throws -> Int {
        guard let keep = policy.perDevice else { return 0 }
        var cursor: String?
        var total = 0
        repeat {
            let step = try await store.capDeviceHistory(keep: keep, after: cursor, devices: max(1, policy.devicesPerSweepStep), limit: policy.batch)
            cursor = step.next
            total += step.deleted
            if cursor != nil { try await Task.sleep(for: policy.pause) }
        } while cursor != nil && !Task.isShuttingDownGracefully && !Task.isCancelled
        if total > 0 { logger.info("retention: device history capped", metadata: ["rows": "\(total)", "keep": "\(keep)"]) }
        return total
    }
}
