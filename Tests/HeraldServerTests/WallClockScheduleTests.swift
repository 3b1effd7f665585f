import Foundation
import Testing
@testable import HeraldServer

/// Daily and weekly wall-clock schedules across daylight-saving transitions: exactly one
/// occurrence per local day, the first of a repeated time, the moment of the jump for a skipped
/// one (as iOS's calendar trigger does), in zones north and south, whole- and half-hour.
@Suite("Schedules across DST")
struct WallClockScheduleTests {
    static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    /// Every occurrence in `[from, to)`, walked the way the scheduler does: from each one to the next.
    static func occurrences(_ time: WallClockTime, in zone: String, from: String, to: String) -> [Date] {
        let zone = TimeZone(identifier: zone)!
        var found: [Date] = []
        var cursor = utc(from)
        while let next = time.next(after: cursor, in: zone), next < utc(to) {
            found.append(next)
            cursor = next
        }
        return found
    }

    struct Case: Sendable, CustomStringConvertible {
        var zone: String
        var time: String
        var from: String
        var to: String
        /// The occurrences expected, in UTC.
        var expected: [String]
        var description: String { "\(zone) \(time) \(from)" }
    }

    static let cases: [Case] = [
        // New York, fall back 2027-11-07 02:00 EDT → 01:00 EST: 01:30 happens twice; the first.
        Case(zone: "America/New_York", time: "01:30", from: "2027-11-06T00:00:00Z", to: "2027-11-09T00:00:00Z",
             expected: ["2027-11-06T05:30:00Z", "2027-11-07T05:30:00Z", "2027-11-08T06:30:00Z"]),
        // New York, spring forward 2027-03-14 02:00 EST → 03:00 EDT: 02:30 is skipped; at 03:00 EDT.
        Case(zone: "America/New_York", time: "02:30", from: "2027-03-13T00:00:00Z", to: "2027-03-16T00:00:00Z",
             expected: ["2027-03-13T07:30:00Z", "2027-03-14T07:00:00Z", "2027-03-15T06:30:00Z"]),
        // London, fall back 2027-10-31 02:00 BST → 01:00 GMT.
        Case(zone: "Europe/London", time: "01:15", from: "2027-10-30T00:00:00Z", to: "2027-11-02T00:00:00Z",
             expected: ["2027-10-30T00:15:00Z", "2027-10-31T00:15:00Z", "2027-11-01T01:15:00Z"]),
        // London, spring forward 2027-03-28 01:00 GMT → 02:00 BST: 01:30 skipped.
        Case(zone: "Europe/London", time: "01:30", from: "2027-03-27T00:00:00Z", to: "2027-03-30T00:00:00Z",
             expected: ["2027-03-27T01:30:00Z", "2027-03-28T01:00:00Z", "2027-03-29T00:30:00Z"]),
        // Sydney, fall back 2027-04-04 03:00 AEDT → 02:00 AEST: 02:30 twice.
        Case(zone: "Australia/Sydney", time: "02:30", from: "2027-04-02T12:00:00Z", to: "2027-04-05T12:00:00Z",
             expected: ["2027-04-02T15:30:00Z", "2027-04-03T15:30:00Z", "2027-04-04T16:30:00Z"]),
        // Sydney, spring forward 2027-10-03 02:00 AEST → 03:00 AEDT: 02:30 skipped.
        Case(zone: "Australia/Sydney", time: "02:30", from: "2027-10-01T12:00:00Z", to: "2027-10-04T12:00:00Z",
             expected: ["2027-10-01T16:30:00Z", "2027-10-02T16:00:00Z", "2027-10-03T15:30:00Z"]),
        // Shanghai has no DST: every day at the same instant.
        Case(zone: "Asia/Shanghai", time: "09:00", from: "2027-03-13T00:00:00Z", to: "2027-03-16T00:00:00Z",
             expected: ["2027-03-13T01:00:00Z", "2027-03-14T01:00:00Z", "2027-03-15T01:00:00Z"]),
        // Adelaide (+9:30/+10:30), fall back 2027-04-04 03:00 ACDT → 02:00 ACST.
        Case(zone: "Australia/Adelaide", time: "02:30", from: "2027-04-02T12:00:00Z", to: "2027-04-05T12:00:00Z",
             expected: ["2027-04-02T16:00:00Z", "2027-04-03T16:00:00Z", "2027-04-04T17:00:00Z"]),
        // Adelaide, spring forward 2027-10-03 02:00 ACST → 03:00 ACDT: 02:30 skipped.
        Case(zone: "Australia/Adelaide", time: "02:30", from: "2027-10-01T12:00:00Z", to: "2027-10-04T12:00:00Z",
             expected: ["2027-10-01T17:00:00Z", "2027-10-02T16:30:00Z", "2027-10-03T16:00:00Z"]),
        // Lord Howe moves its clocks by half an hour (+10:30 → +11 on 2027-10-03 at 02:00).
        Case(zone: "Australia/Lord_Howe", time: "02:15", from: "2027-10-01T12:00:00Z", to: "2027-10-04T12:00:00Z",
             expected: ["2027-10-01T15:45:00Z", "2027-10-02T15:30:00Z", "2027-10-03T15:15:00Z"]),
    ]

    @Test("a daily time fires once per local day", arguments: cases)
    func daily(_ test: Case) {
        let parts = test.time.split(separator: ":").map { Int($0)! }
        let found = Self.occurrences(WallClockTime(hour: parts[0], minute: parts[1], weekday: nil), in: test.zone, from: test.from, to: test.to)
        #expect(found == test.expected.map(Self.utc), "\(found)")
        // The scheduler's other question, the latest occurrence, agrees at each one.
        let zone = TimeZone(identifier: test.zone)!
        for occurrence in found {
            #expect(WallClockTime(hour: parts[0], minute: parts[1], weekday: nil).latest(atOrBefore: occurrence.addingTimeInterval(3599), in: zone) == occurrence)
        }
    }

    @Test("a weekly Sunday time on the fall-back Sunday fires once")
    func weeklyOnTheFallBackDay() {
        let found = Self.occurrences(
            WallClockTime(hour: 1, minute: 45, weekday: 1), in: "America/New_York", from: "2027-11-01T00:00:00Z", to: "2027-11-22T00:00:00Z"
        )
        #expect(found == ["2027-11-07T05:45:00Z", "2027-11-14T06:45:00Z", "2027-11-21T06:45:00Z"].map(Self.utc))
    }

    @Test("the scheduler fires a daily schedule once on the fall-back day, on an injected clock")
    func schedulerOnTheFallBackDay() async throws {
        let test = try await TestServer.make(start: Self.utc("2027-11-06T12:00:00Z"))
        let clock = test.clock
        let admin = test.admin
        try await test.run { api in
            let app = try await api.createApp(admin: admin)
            let token = String(repeating: "ab", count: 32)
            _ = try await api.call(.put, "/v1/devices/\(token)", key: app.key, json: ["environment": "development", "timeZone": "America/New_York"])
            let created = try await api.call(
                .post, "/v1/schedules", key: app.key,
                json: ["id": "night", "trigger": ["daily": "01:30"], "notification": ["to": ["all": true], "message": ["body": "Night"]]]
            )
            #expect(created.status == 201, "\(created.text)")
            #expect((created["nextFireAt"] as? [String: String])?["America/New_York"] == "2027-11-07T05:30:00Z")
            var fired = 0
            // Every 15 minutes through the long night of 2027-11-07 and into the next day.
            for step in 0..<(30 * 4) {
                clock.set(Self.utc("2027-11-06T12:00:00Z").addingTimeInterval(TimeInterval(step * 900)))
                fired += try await test.server.scheduler.tick()
            }
            #expect(fired == 1)
        }
    }
}
