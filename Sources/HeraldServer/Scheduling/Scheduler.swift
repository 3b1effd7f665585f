import Foundation
import HeraldStore
import Logging
import ServiceLifecycle

/// Fires due schedules: each firing stores a notification (for wall-clock triggers, one per
/// time zone whose local time has come) and wakes the delivery workers. Schedules are leased, so
/// with several nodes each firing happens once: a node that stops between storing a firing's
/// notification and finishing the firing leaves the schedule to another node once the lease
/// ends, and that node's firing carries the same idempotency key (see ``firingKey``), so it
/// finds the notification stored (and finishes queuing its audience) instead of making another.
final class Scheduler: Service, Sendable {
    let store: any HeraldStore
    let configuration: ServerConfiguration
    /// Stores a firing's notification, as a repeat of one stored since the date if its
    /// idempotency key was used since then.
    let enqueue: @Sendable (StoredNotification, _ idempotentSince: Date) async throws -> Void
    /// Wall-clock schedules are looked at again at least this often, for time zones that appear.
    static let wallClockRecheck: TimeInterval = 15 * 60

    /// Idempotency keys beginning with this are the scheduler's; the API refuses them.
    static let reservedKeyPrefix = "herald:"

    init(
        store: any HeraldStore, configuration: ServerConfiguration,
        enqueue: @escaping @Sendable (StoredNotification, _ idempotentSince: Date) async throws -> Void
    ) {
        self.store = store
        self.configuration = configuration
        self.enqueue = enqueue
    }

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                _ = try await tick()
            } catch {
                configuration.logger.error("scheduler: \(error)")
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: self.configuration.schedulerInterval) }
        }
    }

    /// Fires every schedule due at the clock's time; returns the notifications made.
    @discardableResult
    func tick() async throws -> Int {
        let now = configuration.clock.now
        var made = 0
        for var schedule in try await store.claimDueSchedules(owner: configuration.nodeID, now: now, lease: 60, limit: 100) {
            let send = try JSONDecoder().decode(ScheduledSend.self, from: schedule.request)
            var finished = false
            let madeBefore = made
            switch send.resolved {
            case .once:
                try await fire(schedule, send: send, timeZone: nil, occurrence: schedule.nextCheckAt, now: now)
                made += 1
                finished = true
            case .every(let seconds):
                try await fire(schedule, send: send, timeZone: nil, occurrence: schedule.nextCheckAt, now: now)
                made += 1
                // The store keeps seconds since 1970 and Date counts from 2001: allow for the
                // rounding so a due time read back is never taken for a future one.
                var next = schedule.nextCheckAt
                while next <= now.addingTimeInterval(0.001) { next.addTimeInterval(TimeInterval(seconds)) }
                schedule.nextCheckAt = next
            case .wallClock(let time):
                var nextCheck = now.addingTimeInterval(Self.wallClockRecheck)
                let fallback = try await store.app(id: schedule.appID)?.defaultTimeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
                for zoneName in try await store.timeZones(appID: schedule.appID, audience: send.audience) {
                    // Devices without a zone (or with one this system does not know) use the app's.
                    let zone = zoneName.isEmpty ? fallback : (TimeZone(identifier: zoneName) ?? fallback)
                    if let occurrence = time.latest(atOrBefore: now, in: zone), occurrence.timeIntervalSince(schedule.firedThrough[zoneName] ?? schedule.createdAt) > 1 {
                        try await fire(schedule, send: send, timeZone: zoneName, occurrence: occurrence, localIn: zone, now: now)
                        schedule.firedThrough[zoneName] = occurrence
                        made += 1
                    }
                    if let next = time.next(after: now, in: zone), next < nextCheck { nextCheck = next }
                }
                schedule.nextCheckAt = nextCheck
            }
            if made > madeBefore { schedule.fireCount += 1 }
            try await store.finishFiring(schedule, finished: finished, owner: configuration.nodeID)
        }
        return made
    }

    /// The idempotency key of one firing: the schedule (its id and when it was made, so that a
    /// schedule replaced under the same id is another), the occurrence, and the time zone. A
    /// wall-clock occurrence is named by its local date and time in the zone it fired in, so
    /// that a node taking it over finds it even if the app's default zone (for devices without
    /// one) changed meanwhile, or its time zone data differ.
    static func firingKey(_ schedule: StoredSchedule, occurrence: Date, timeZone: String?, localIn zone: TimeZone? = nil) -> String {
        let made = Int64((schedule.createdAt.timeIntervalSince1970 * 1000).rounded())
        let due: String
        if let zone {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: occurrence)
            due = String(format: "%04d-%02d-%02dT%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0)
        } else {
            due = String(Int64((occurrence.timeIntervalSince1970 * 1000).rounded()))
        }
        return "\(reservedKeyPrefix)schedule:\(schedule.id):\(made):\(due)" + (timeZone.map { ":\($0)" } ?? "")
    }

    private func fire(_ schedule: StoredSchedule, send: ScheduledSend, timeZone: String?, occurrence: Date, localIn zone: TimeZone? = nil, now: Date) async throws {
        var audience = send.audience
        audience.timeZone = timeZone
        let key = Self.firingKey(schedule, occurrence: occurrence, timeZone: timeZone, localIn: zone)
        let notification = StoredNotification(
            id: UUID().uuidString.lowercased(), appID: schedule.appID, message: send.message.encoded(), audience: audience,
            idempotencyKey: key, scheduleID: schedule.id, createdAt: now
        )
        // The key names one firing; a node that took over one computes its occurrence from the
        // same local time, which may be another instant if a zone changed: a day's margin.
        try await enqueue(notification, occurrence.addingTimeInterval(-86_400))
        configuration.logger.info("schedule fired", metadata: ["app": "\(schedule.appID)", "schedule": "\(schedule.id)", "zone": "\(timeZone ?? "-")"])
    }
}
