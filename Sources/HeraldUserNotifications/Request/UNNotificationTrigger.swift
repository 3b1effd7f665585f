import Foundation
import HeraldDevice

/// When a notification is delivered (Apple's `UNNotificationTrigger`); use a subclass.
public class UNNotificationTrigger: NSObject, NSCopying, @unchecked Sendable {
    public let repeats: Bool

    init(repeats: Bool) {
        self.repeats = repeats
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// The device's form; `nil` for a push trigger, which is never scheduled.
    var deviceTrigger: NotificationTrigger? { nil }

    static func make(device trigger: NotificationTrigger) -> UNNotificationTrigger {
        switch trigger {
        case .timeInterval(let seconds, let repeats): UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: repeats)
        case .calendar(let components, let repeats): UNCalendarNotificationTrigger(dateMatching: components, repeats: repeats)
        }
    }
}

/// Fires after a number of seconds (Apple's `UNTimeIntervalNotificationTrigger`). iOS raises an
/// exception for an interval of 0 or less, or a repeating one under 60 s; here the request is
/// refused when it is added, with that reason in the transcript.
public class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    public let timeInterval: TimeInterval
    let createdAt = Date()

    public init(timeInterval: TimeInterval, repeats: Bool) {
        self.timeInterval = timeInterval
        super.init(repeats: repeats)
    }

    /// When it would fire if the request were added now.
    public func nextTriggerDate() -> Date? { Date().addingTimeInterval(timeInterval) }

    override var deviceTrigger: NotificationTrigger? { .timeInterval(seconds: timeInterval, repeats: repeats) }

    public override var description: String { "<UNTimeIntervalNotificationTrigger: repeats: \(repeats), timeInterval: \(timeInterval)>" }
}

/// Fires at dates matching some components (Apple's `UNCalendarNotificationTrigger`), in the
/// device's calendar and time zone.
public class UNCalendarNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    public let dateComponents: DateComponents

    public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
        self.dateComponents = dateComponents
        super.init(repeats: repeats)
    }

    /// The next matching date after now (in the current calendar).
    public func nextTriggerDate() -> Date? {
        let calendar = dateComponents.calendar ?? Calendar.current
        return calendar.nextDate(after: Date(), matching: dateComponents, matchingPolicy: .nextTime)
    }

    override var deviceTrigger: NotificationTrigger? { .calendar(dateComponents, repeats: repeats) }

    public override var description: String { "<UNCalendarNotificationTrigger: repeats: \(repeats), dateComponents: \(dateComponents)>" }
}

/// The trigger of a notification that came from APNs (Apple's `UNPushNotificationTrigger`).
public class UNPushNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    public override var description: String { "<UNPushNotificationTrigger: repeats: \(repeats)>" }
}
