import Foundation

/// When a local notification fires (UNTimeIntervalNotificationTrigger,
/// UNCalendarNotificationTrigger; location triggers are not modelled).
public enum NotificationTrigger: Sendable, Equatable {
    /// After `seconds` from when the request is added; again every `seconds` if it repeats.
    case timeInterval(seconds: Double, repeats: Bool)
    /// At the next date matching `components` (in the device's calendar and time zone); at every
    /// match if it repeats.
    case calendar(DateComponents, repeats: Bool)

    /// The shortest repeating interval iOS accepts.
    public static let minimumRepeatingInterval = 60.0

    /// Whether the trigger fires more than once.
    public var repeats: Bool {
        switch self {
        case .timeInterval(_, let repeats), .calendar(_, let repeats): repeats
        }
    }

    /// Checks the trigger as iOS does when it is created.
    public func validate() throws(NotificationCenterError) {
        switch self {
        case .timeInterval(let seconds, let repeats):
            guard seconds > 0 else { throw .invalidTrigger("a time interval must be greater than 0; it is \(seconds)") }
            guard !repeats || seconds >= Self.minimumRepeatingInterval else {
                throw .invalidTrigger("a repeating time interval must be at least 60 seconds; it is \(seconds)")
            }
        case .calendar(let components, _):
            let fields: [Int?] = [components.year, components.month, components.day, components.hour, components.minute, components.second, components.weekday]
            guard fields.contains(where: { $0 != nil }) else { throw .invalidTrigger("a calendar trigger needs at least one date component") }
        }
    }

    /// The first fire date for a request added at `added`, or the next one after `previous` for
    /// a repeating trigger; `nil` when it never fires (again).
    public func fireDate(addedAt added: Date, after previous: Date?, calendar: Calendar) -> Date? {
        switch self {
        case .timeInterval(let seconds, let repeats):
            guard let previous else { return added.addingTimeInterval(seconds) }
            return repeats ? previous.addingTimeInterval(seconds) : nil
        case .calendar(let components, let repeats):
            if previous != nil, !repeats { return nil }
            return Self.nextMatch(after: previous ?? added, components: components, calendar: calendar)
        }
    }

    /// The next date after `date` whose fields equal every field `components` gives; `nil` when
    /// none does (February 30th). Foundation may roll such a date over; iOS never fires it.
    static func nextMatch(after date: Date, components: DateComponents, calendar: Calendar) -> Date? {
        guard let next = calendar.nextDate(after: date, matching: components, matchingPolicy: .strict) else { return nil }
        let found = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: next)
        let pairs: [(Int?, Int?)] = [(components.year, found.year), (components.month, found.month), (components.day, found.day),
                                     (components.hour, found.hour), (components.minute, found.minute), (components.second, found.second),
                                     (components.weekday, found.weekday)]
        return pairs.allSatisfy { wanted, got in wanted == nil || wanted == got } ? next : nil
    }
}
