import Foundation
import HeraldStore

/// What a schedule sends, as stored with it: the request as given (to show it back), and the
/// message and audience checked when it was scheduled.
struct ScheduledSend: Codable, Sendable {
    var request: SendRequest
    var message: OutgoingMessage
    var audience: Audience
    var trigger: ScheduleTrigger
    var resolved: ResolvedTrigger
}

/// A schedule as the API shows it.
struct ScheduleView: Encodable, Sendable {
    var id: String
    var trigger: ScheduleTrigger
    var notification: SendRequest
    /// When the scheduler looks at it next.
    var nextCheckAt: Date
    var fireCount: Int
    /// Per time zone (`""`: devices without one), the last wall-clock occurrence fired.
    var firedThrough: [String: Date]
    /// Daily and weekly schedules: per time zone of the audience (`""`: devices without one,
    /// in the app's default zone), when it fires next.
    var nextFireAt: [String: Date]?
    var createdAt: Date

    init(_ schedule: StoredSchedule, send: ScheduledSend, nextFireAt: [String: Date]? = nil) {
        self.nextFireAt = nextFireAt
        id = schedule.id
        trigger = send.trigger
        notification = send.request
        nextCheckAt = schedule.nextCheckAt
        fireCount = schedule.fireCount
        firedThrough = schedule.firedThrough
        createdAt = schedule.createdAt
    }
}

/// `POST /v1/schedules` and `PUT /v1/schedules/{id}`.
struct ScheduleInput: Decodable, Sendable {
    var id: String?
    var trigger: ScheduleTrigger
    var notification: SendRequest
}

extension ScheduleInput: KnownFields {
    static var fields: [String: FieldShape] { ["id": .value, "trigger": .value, "notification": .object(SendRequest.self)] }
}
