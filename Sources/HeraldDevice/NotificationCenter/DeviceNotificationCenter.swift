import Foundation

/// One app's notification center on the simulated device (UNUserNotificationCenter): categories,
/// pending local requests with their triggers, and delivered notifications, on a virtual clock.
///
/// It keeps iOS's rules: adding a request with an existing identifier replaces it; a repeating
/// interval is at least 60 s; attachments are checked when the request is added (an invalid one
/// means it is not scheduled); at most 64 requests stay pending, those that fire soonest;
/// registering categories replaces the whole set.
public struct DeviceNotificationCenter: Sendable {
    /// The most pending requests iOS keeps for an app.
    public static let pendingLimit = 64

    /// A request waiting for its trigger.
    public struct Pending: Sendable, Equatable {
        public var request: NotificationRequest
        public var addedAt: Date
        public var nextFireDate: Date
    }

    /// A notification in the notification list.
    public struct Delivered: Sendable, Equatable {
        public var request: NotificationRequest
        public var date: Date
    }

    /// The virtual time now.
    public private(set) var now: Date
    public var calendar: Calendar
    public private(set) var categories: [NotificationCategory] = []
    private var pendingByID: [String: Pending] = [:]
    public private(set) var delivered: [Delivered] = []

    public init(now: Date, calendar: Calendar = Calendar(identifier: .gregorian)) {
        self.now = now
        self.calendar = calendar
    }

    /// A new time zone: each pending calendar trigger's next date is found again from now, at
    /// its wall-clock time in the new zone.
    public mutating func setTimeZone(_ timeZone: TimeZone) {
        calendar.timeZone = timeZone
        for (identifier, entry) in pendingByID {
            guard case .calendar(let components, _) = entry.request.trigger, components.timeZone == nil else { continue }
            if let next = NotificationTrigger.nextMatch(after: now, components: components, calendar: calendar) {
                pendingByID[identifier]?.nextFireDate = next
            }
        }
    }

    /// Pending requests, soonest first.
    public var pending: [Pending] {
        pendingByID.values.sorted { ($0.nextFireDate, $0.request.identifier) < ($1.nextFireDate, $1.request.identifier) }
    }

    /// Replaces the whole set of categories (setNotificationCategories). iOS accepts an action
    /// identifier used twice, but the app cannot tell the actions apart in its response
    /// handler: the identifiers used more than once are returned, sorted, for a warning.
    @discardableResult
    public mutating func setCategories(_ categories: [NotificationCategory]) -> [String] {
        var seen: Set<String> = []
        var repeated: Set<String> = []
        for action in categories.flatMap(\.actions) where !seen.insert(action.identifier).inserted {
            repeated.insert(action.identifier)
        }
        self.categories = categories
        return repeated.sorted()
    }

    /// The registered category with this identifier (case-sensitive), if any.
    public func category(_ identifier: String) -> NotificationCategory? {
        categories.first { $0.identifier == identifier }
    }

    /// Schedules a request, replacing one with the same identifier; a request without a trigger
    /// is delivered at once. Returns the requests dropped by the 64-request limit.
    @discardableResult
    public mutating func add(_ request: NotificationRequest) throws(NotificationCenterError) -> [NotificationRequest] {
        // Attachments are checked again now: the file may have changed since it was attached.
        for attachment in request.content.attachments {
            _ = try NotificationAttachment(identifier: attachment.identifier, fileURL: attachment.fileURL)
        }
        guard let trigger = request.trigger else {
            pendingByID[request.identifier] = nil
            deliver(request, at: now)
            return []
        }
        try trigger.validate()
        guard let fireDate = trigger.fireDate(addedAt: now, after: nil, calendar: calendar) else {
            throw .invalidTrigger("the calendar trigger never matches a future date")
        }
        pendingByID[request.identifier] = Pending(request: request, addedAt: now, nextFireDate: fireDate)
        return enforcePendingLimit()
    }

    /// Keeps the 64 requests that fire soonest.
    private mutating func enforcePendingLimit() -> [NotificationRequest] {
        guard pendingByID.count > Self.pendingLimit else { return [] }
        let dropped = pending.dropFirst(Self.pendingLimit).map(\.request)
        for request in dropped { pendingByID[request.identifier] = nil }
        return dropped
    }

    public mutating func removePending(identifiers: [String]) {
        for identifier in identifiers { pendingByID[identifier] = nil }
    }

    public mutating func removeAllPending() {
        pendingByID.removeAll()
    }

    public mutating func removeDelivered(identifiers: [String]) {
        delivered.removeAll { identifiers.contains($0.request.identifier) }
    }

    public mutating func removeAllDelivered() {
        delivered.removeAll()
    }

    /// Moves the clock forward, firing every request due on the way, in order. Returns what was
    /// delivered.
    @discardableResult
    public mutating func advance(by seconds: TimeInterval) -> [Delivered] {
        let end = now.addingTimeInterval(seconds)
        var fired: [Delivered] = []
        while let next = pending.first, next.nextFireDate <= end {
            now = next.nextFireDate
            deliver(next.request, at: now)
            fired.append(Delivered(request: next.request, date: now))
            let trigger = next.request.trigger!
            if let following = trigger.fireDate(addedAt: next.addedAt, after: next.nextFireDate, calendar: calendar) {
                pendingByID[next.request.identifier]?.nextFireDate = following
            } else {
                pendingByID[next.request.identifier] = nil
            }
        }
        now = end
        return fired
    }

    /// Puts a notification in the delivered list (a push, or a fired request); one with the same
    /// identifier replaces the earlier one.
    public mutating func deliver(_ request: NotificationRequest, at date: Date) {
        delivered.removeAll { $0.request.identifier == request.identifier }
        delivered.append(Delivered(request: request, date: date))
    }
}
