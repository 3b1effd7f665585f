import Foundation

/// When a schedule fires, the server-side twin of iOS's notification triggers: once at a time,
/// once after a delay, every N seconds (at least 60, as iOS requires for repeating intervals),
/// or at a wall-clock time daily or weekly in each device's own time zone.
struct ScheduleTrigger: Codable, Sendable, Hashable {
    /// `{"weekday": 2, "time": "09:00"}`; weekdays count from 1 = Sunday, as `DateComponents`.
    struct Weekly: Codable, Sendable, Hashable {
        var weekday: Int
        var time: String
    }

    var at: Date?
    var after: Int?
    var every: Int?
    var daily: String?
    var weekly: Weekly?

    static let minimumRepeatInterval = 60

    /// The trigger checked and resolved against the time it is created.
    func resolved(now: Date) throws(APIError) -> ResolvedTrigger {
        let given = [at != nil, after != nil, every != nil, daily != nil, weekly != nil].filter { $0 }.count
        guard given == 1 else {
            throw .badRequest("trigger needs exactly one of at (ISO 8601 time), after (seconds), every (seconds, at least 60), daily (\"HH:mm\") or weekly ({weekday, time})")
        }
        if let at { return .once(at) }
        if let after {
            guard after >= 1 else { throw .badRequest("trigger.after must be at least 1 second") }
            return .once(now.addingTimeInterval(TimeInterval(after)))
        }
        if let every {
            guard every >= Self.minimumRepeatInterval else {
                throw .badRequest("trigger.every must be at least \(Self.minimumRepeatInterval) seconds, as iOS requires for repeating triggers")
            }
            return .every(seconds: every)
        }
        if let daily {
            let (hour, minute) = try Self.clockTime(daily, field: "trigger.daily")
            return .wallClock(WallClockTime(hour: hour, minute: minute, weekday: nil))
        }
        let weekly = weekly!
        guard (1...7).contains(weekly.weekday) else { throw .badRequest("trigger.weekly.weekday must be 1 (Sunday) to 7 (Saturday)") }
        let (hour, minute) = try Self.clockTime(weekly.time, field: "trigger.weekly.time")
        return .wallClock(WallClockTime(hour: hour, minute: minute, weekday: weekly.weekday))
    }

    static func clockTime(_ text: String, field: String) throws(APIError) -> (Int, Int) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hour = Int(parts[0]), let minute = Int(parts[1]),
            (0...23).contains(hour), (0...59).contains(minute)
        else { throw .badRequest("\(field) must be a 24-hour time \"HH:mm\" such as \"09:00\"; got '\(text)'") }
        return (hour, minute)
    }
}

/// A trigger ready for the scheduler.
enum ResolvedTrigger: Codable, Sendable, Hashable {
    case once(Date)
    case every(seconds: Int)
    case wallClock(WallClockTime)
}

/// A time of day, and a weekday for weekly triggers, read in a device's time zone.
struct WallClockTime: Codable, Sendable, Hashable {
    var hour: Int
    var minute: Int
    /// 1 = Sunday … 7 = Saturday; `nil` for every day.
    var weekday: Int?

    /// The latest occurrence at or before `now` in `zone`.
    func latest(atOrBefore now: Date, in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var components = DateComponents(hour: hour, minute: minute, second: 0)
        components.weekday = weekday
        return calendar.nextDate(after: now.addingTimeInterval(0.001), matching: components, matchingPolicy: .nextTime, direction: .backward)
    }

    /// The first occurrence after `now` in `zone`.
    func next(after now: Date, in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var components = DateComponents(hour: hour, minute: minute, second: 0)
        components.weekday = weekday
        return calendar.nextDate(after: now, matching: components, matchingPolicy: .nextTime, direction: .forward)
    }
}
