import Foundation

extension SimulatedDevice {
    /// Schedules a local notification for an app (`UNUserNotificationCenter.add`). A refused
    /// request is in the transcript and the error is thrown.
    public func add(_ request: NotificationRequest, app: String) async throws {
        var installed = try installed(app)
        let dropped: [NotificationRequest]
        do throws(NotificationCenterError) {
            switch installed.settings.authorization {
            case .notDetermined:
                throw NotificationCenterError.notAllowed("the app has not asked for authorization yet (requestAuthorization)")
            case .denied:
                throw NotificationCenterError.notAllowed("the user denied this app notifications")
            case .authorized, .provisional:
                break
            }
            dropped = try installed.center.add(request)
        } catch {
            record(.localRejected, app: app, notification: request.identifier, details: ["error": error.description], "not scheduled: \(error)")
            throw error
        }
        apps[app] = installed
        if request.trigger == nil {
            record(.localScheduled, app: app, notification: request.identifier, "added without a trigger: delivered now")
            let delivered = DeliveredNotification(request: request, date: now, source: .local, userInfo: request.content.userInfo)
            await present(delivered, app: app, at: now)
            return
        }
        let next = installed.center.pending.first { $0.request.identifier == request.identifier }?.nextFireDate
        record(.localScheduled, app: app, notification: request.identifier,
               details: ["fires": next.map { ISO8601DateFormatter().string(from: $0) } ?? "", "repeats": String(request.trigger?.repeats ?? false)],
               "scheduled" + (next.map { " to fire in \(($0.timeIntervalSince(now)).formattedSeconds)" } ?? ""))
        for request in dropped {
            record(.localDropped, app: app, notification: request.identifier,
                   "dropped: an app keeps at most \(DeviceNotificationCenter.pendingLimit) pending requests, those that fire soonest")
        }
    }

    /// The app's pending local requests, soonest first.
    public func pending(_ app: String) throws(DeviceError) -> [DeviceNotificationCenter.Pending] {
        try installed(app).center.pending
    }

    /// Removes pending requests (`removePendingNotificationRequests(withIdentifiers:)`).
    public func removePending(_ identifiers: [String], app: String) throws(DeviceError) {
        var installed = try installed(app)
        let known = Set(installed.center.pending.map(\.request.identifier))
        installed.center.removePending(identifiers: identifiers)
        apps[app] = installed
        for identifier in identifiers {
            record(.localRemoved, app: app, notification: identifier,
                   known.contains(identifier) ? "pending request removed" : "no pending request with this identifier; nothing removed")
        }
    }

    /// Removes every pending request (`removeAllPendingNotificationRequests`).
    public func removeAllPending(app: String) throws(DeviceError) {
        var installed = try installed(app)
        let count = installed.center.pending.count
        installed.center.removeAllPending()
        apps[app] = installed
        record(.localRemoved, app: app, details: ["removed": String(count)], "all \(count) pending requests removed")
    }

    /// Removes notifications from the notification list and the screen
    /// (`removeDeliveredNotifications(withIdentifiers:)`); `nil` removes them all.
    public func removeDelivered(_ identifiers: [String]?, app: String) throws(DeviceError) {
        var installed = try installed(app)
        let removing = identifiers.map(Set.init) ?? Set(installed.center.delivered.map(\.request.identifier))
        installed.center.removeDelivered(identifiers: Array(removing))
        apps[app] = installed
        shown.removeAll { $0.app == app && removing.contains($0.identifier) }
        record(.dismissed, app: app, details: ["sent": "false", "by": "app", "removed": String(removing.count)],
               "the app removed \(removing.count) delivered notification\(removing.count == 1 ? "" : "s")")
    }

    /// Moves the virtual clock forward, firing every local notification due on the way, in order.
    /// The clock stops at each fire date and the notification is presented before it goes on,
    /// so what the app does when it hears of one (remove or add requests) counts for the rest.
    public func advance(by seconds: TimeInterval) async {
        await advance(until: now.addingTimeInterval(seconds))
    }

    /// Moves the clock to `end` (never back), firing what is due on the way.
    func advance(until end: Date) async {
        guard end > now else { return }
        while true {
            let nextFire = apps.values.compactMap({ $0.center.pending.first?.nextFireDate }).min()
            // A change the user makes at a set time (while an extension works, say) comes first
            // when it is due no later than the next local notification.
            if let change = scheduledChanges.first, change.at <= end, nextFire.map({ change.at <= $0 }) ?? true {
                scheduledChanges.removeFirst()
                await moveCenters(to: change.at)
                await apply(change.change)
                continue
            }
            guard let next = nextFire, next <= end else { break }
            var fired: [(app: String, delivered: DeviceNotificationCenter.Delivered)] = []
            for id in apps.keys.sorted() {
                guard var installed = apps[id] else { continue }
                for delivered in installed.center.advance(by: next.timeIntervalSince(installed.center.now)) {
                    fired.append((id, delivered))
                }
                apps[id] = installed
            }
            now = next
            for item in fired {
                record(.localFired, app: item.app, notification: item.delivered.request.identifier, "local notification fired")
                let delivered = DeliveredNotification(
                    request: item.delivered.request, date: item.delivered.date, source: .local, userInfo: item.delivered.request.content.userInfo
                )
                await present(delivered, app: item.app, at: item.delivered.date)
            }
        }
        await moveCenters(to: end)
    }

    /// Moves the clock and every app's center to `date` (nothing is due before it).
    private func moveCenters(to date: Date) async {
        for id in apps.keys.sorted() {
            guard var installed = apps[id] else { continue }
            installed.center.advance(by: date.timeIntervalSince(installed.center.now))
            apps[id] = installed
        }
        now = max(now, date)
    }

    /// Makes `change` happen `seconds` from now on the device's clock: while a later step's
    /// extension works, for example.
    /// A change due now happens at once; one for an app that is not installed is refused.
    public func schedule(_ change: ScheduledChange, after seconds: TimeInterval) async throws(DeviceError) {
        if case .state(_, let app) = change { _ = try installed(app) }
        guard seconds.isFinite, seconds >= 0 else { throw .invalid("a change is scheduled from 0 seconds on; \(seconds) is not") }
        guard seconds > 0 else { return await apply(change) }
        scheduledChanges.append((now.addingTimeInterval(seconds), change))
        scheduledChanges.sort { $0.at < $1.at }
    }

    private func apply(_ change: ScheduledChange) async {
        switch change {
        case .state(let state, let app): try? await setState(state, app: app)
        case .lock(let locked): setLocked(locked)
        }
    }
}
