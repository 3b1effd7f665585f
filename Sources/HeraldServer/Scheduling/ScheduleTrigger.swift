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
///
/// Each local day has exactly one occurrence, as iOS's calendar trigger has for a local
/// notification: in the hour repeated when clocks go back it is the first of the two; a time
/// skipped when clocks go forward fires at the first instant after the gap (the same day, at
/// the moment the clocks jump), not twice and not never.
struct WallClockTime: Codable, Sendable, Hashable {
    var hour: Int
    var minute: Int
    /// 1 = Sunday … 7 = Saturday; `nil` for every day.
    var weekday: Int?

    /// The latest occurrence at or before `now` in `zone`.
    func latest(atOrBefore now: Date, in zone: TimeZone) -> Date? {
        let today = LocalDay(containing: now, in: zone)
        for back in 0...8 {
            let day = today.adding(days: -back)
            guard matches(day), let occurrence = day.instant(hour: hour, minute: minute, in: zone) else { continue }
            if occurrence <= now { return occurrence }
        }
        return nil
    }

    /// The first occurrence after `now` in `zone`.
    func next(after now: Date, in zone: TimeZone) -> Date? {
        let today = LocalDay(containing: now, in: zone)
        for ahead in 0...8 {
            let day = today.adding(days: ahead)
            guard matches(day), let occurrence = day.instant(hour: hour, minute: minute, in: zone) else { continue }
            if occurrence > now { return occurrence }
        }
        return nil
    }

    private func matches(_ day: LocalDay) -> Bool {
        weekday.map { $0 == day.weekday } ?? true
    }
}

/// A calendar date (proleptic Gregorian) in some time zone.
struct LocalDay: Hashable, Sendable {
    var year: Int
    var month: Int
    var day: Int

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The local date of `instant` in `zone`.
    init(containing instant: Date, in zone: TimeZone) {
        let shifted = instant.addingTimeInterval(TimeInterval(zone.secondsFromGMT(for: instant)))
        let parts = Self.utc.dateComponents([.year, .month, .day], from: shifted)
        self.init(year: parts.year!, month: parts.month!, day: parts.day!)
    }

    /// This date's wall-clock time read as if it were UTC.
    private func naive(hour: Int, minute: Int) -> Date {
        Self.utc.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    func adding(days: Int) -> LocalDay {
        let moved = Self.utc.date(byAdding: .day, value: days, to: naive(hour: 12, minute: 0))!
        let parts = Self.utc.dateComponents([.year, .month, .day], from: moved)
        return LocalDay(year: parts.year!, month: parts.month!, day: parts.day!)
    }

    /// 1 = Sunday … 7 = Saturday.
    var weekday: Int { Self.utc.component(.weekday, from: naive(hour: 12, minute: 0)) }

    /// The instant this date shows `hour:minute` in `zone`: the earlier one when the time
    /// happens twice (clocks going back), the moment the clocks jump when it is skipped.
    func instant(hour: Int, minute: Int, in zone: TimeZone) -> Date? {
        let wall = naive(hour: hour, minute: minute)
        // The zone's offsets a day either side cover any transition near this time.
        let offsets = Set([-86_400.0, 0, 86_400].map { zone.secondsFromGMT(for: wall.addingTimeInterval($0)) })
        let valid = offsets.map { wall.addingTimeInterval(TimeInterval(-$0)) }.filter { candidate in
            candidate.addingTimeInterval(TimeInterval(zone.secondsFromGMT(for: candidate))) == wall
        }
        if let earliest = valid.min() { return earliest }
        // Skipped: the wall time falls in a gap. Between reading it with the offset after the
        // gap (too early, still before the jump) and with the one before it (already after),
        // find the jump to the second.
        guard let low = offsets.max(), let high = offsets.min() else { return nil }
        var before = wall.addingTimeInterval(TimeInterval(-low))
        var after = wall.addingTimeInterval(TimeInterval(-high))
        guard before < after else { return nil }
        while after.timeIntervalSince(before) > 1 {
            let middle = before.addingTimeInterval(after.timeIntervalSince(before) / 2)
            if middle.addingTimeInterval(TimeInterval(zone.secondsFromGMT(for: middle))) > wall { after = middle } else { before = middle }
        }
        let whole = Date(timeIntervalSince1970: after.timeIntervalSince1970.rounded(.down))
        return whole.addingTimeInterval(TimeInterval(zone.secondsFromGMT(for: whole))) > wall ? whole : whole.addingTimeInterval(1)
    }
}
