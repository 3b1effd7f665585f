import Foundation
import HeraldCore
import Testing

@testable import HeraldDevice

@Suite("Local notifications")
struct LocalNotificationTests {
    static let start = Date(timeIntervalSince1970: 1_763_700_000)  // 2025-11-21 04:40 UTC

    func center() -> DeviceNotificationCenter {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return DeviceNotificationCenter(now: Self.start, calendar: calendar)
    }

    /// A real file of `bytes` bytes named `name` in a fresh directory.
    func file(_ name: String, bytes: Int) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-device-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(count: bytes).write(to: url)
        return url
    }

    /// Seed 000: a notification in 5 s with badge, sound, userInfo and an image; then one
    /// cancelled by its identifier before it fires.
    @Test func seed000ScheduleInFiveSecondsAndCancel() throws {
        var center = center()
        var content = NotificationContent(title: "Reminder", subtitle: "Seed 000", body: "Time to look at the app")
        content.badge = 1
        content.sound = "default"
        content.userInfo = ["orderID": .string("A-1")]
        content.attachments = [try NotificationAttachment(identifier: "photo", fileURL: try file("photo.png", bytes: 2_000))]
        try center.add(NotificationRequest(identifier: "reminder", content: content, trigger: .timeInterval(seconds: 5, repeats: false)))
        try center.add(NotificationRequest(identifier: "cancelled", content: content, trigger: .timeInterval(seconds: 5, repeats: false)))
        center.removePending(identifiers: ["cancelled"])

        #expect(center.advance(by: 4.9).isEmpty)
        let fired = center.advance(by: 0.2)
        #expect(fired.map(\.request.identifier) == ["reminder"])
        #expect(fired.first?.date == Self.start.addingTimeInterval(5))
        #expect(fired.first?.request.content.badge == 1)
        #expect(fired.first?.request.content.attachments.first?.kind == .image)
        #expect(center.pending.isEmpty)
        #expect(center.delivered.map(\.request.identifier) == ["reminder"])
    }

    @Test func aRepeatingIntervalUnderSixtySecondsIsRefused() throws {
        var center = center()
        let request = NotificationRequest(identifier: "r", content: NotificationContent(body: "x"), trigger: .timeInterval(seconds: 59, repeats: true))
        #expect(throws: NotificationCenterError.invalidTrigger("a repeating time interval must be at least 60 seconds; it is 59.0")) {
            try center.add(request)
        }
        #expect(throws: NotificationCenterError.self) {
            try center.add(NotificationRequest(identifier: "z", content: NotificationContent(body: "x"), trigger: .timeInterval(seconds: 0, repeats: false)))
        }
        try center.add(NotificationRequest(identifier: "r", content: NotificationContent(body: "x"), trigger: .timeInterval(seconds: 60, repeats: true)))
        #expect(center.advance(by: 180).count == 3)
        #expect(center.pending.count == 1)
        #expect(center.delivered.count == 1)  // the same identifier replaces the earlier one
    }

    @Test func theSameIdentifierReplacesThePendingRequest() throws {
        var center = center()
        try center.add(NotificationRequest(identifier: "a", content: NotificationContent(body: "first"), trigger: .timeInterval(seconds: 10, repeats: false)))
        try center.add(NotificationRequest(identifier: "a", content: NotificationContent(body: "second"), trigger: .timeInterval(seconds: 20, repeats: false)))
        #expect(center.pending.map(\.request.content.body) == ["second"])
        #expect(center.advance(by: 15).isEmpty)
        #expect(center.advance(by: 10).map(\.request.content.body) == ["second"])
    }

    @Test func only64PendingAreKeptTheSoonest() throws {
        var center = center()
        var dropped: [NotificationRequest] = []
        for index in (1...70).reversed() {
            dropped += try center.add(NotificationRequest(
                identifier: "n\(index)", content: NotificationContent(body: "\(index)"), trigger: .timeInterval(seconds: Double(index), repeats: false)
            ))
        }
        #expect(center.pending.count == 64)
        #expect(center.pending.first?.request.identifier == "n1" && center.pending.last?.request.identifier == "n64")
        #expect(Set(dropped.map(\.identifier)) == Set((65...70).map { "n\($0)" }))
    }

    @Test func calendarTriggersFireAtTheirTimeAndRepeat() throws {
        var center = center()
        var nine = DateComponents()
        nine.hour = 9
        nine.minute = 0
        try center.add(NotificationRequest(identifier: "daily", content: NotificationContent(body: "Good morning"), trigger: .calendar(nine, repeats: true)))
        let fired = center.advance(by: 3 * 86_400)
        #expect(fired.count == 3)
        let hours = fired.map { center.calendar.component(.hour, from: $0.date) }
        #expect(hours == [9, 9, 9])
        #expect(throws: NotificationCenterError.self) {
            try center.add(NotificationRequest(identifier: "none", content: NotificationContent(body: "x"), trigger: .calendar(DateComponents(), repeats: false)))
        }
    }

    @Test func attachmentsAreCheckedWhenAdded() throws {
        // A .tmp file: iOS does not know its type.
        #expect(throws: NotificationCenterError.self) { try NotificationAttachment(identifier: "a", fileURL: try file("download.tmp", bytes: 10)) }
        // An image over 10 MB.
        #expect(throws: NotificationCenterError.self) {
            try NotificationAttachment(identifier: "a", fileURL: try file("big.jpg", bytes: AttachmentKind.image.maximumByteCount + 1))
        }
        // A remote URL must be downloaded first.
        #expect(throws: NotificationCenterError.self) { try NotificationAttachment(identifier: "a", fileURL: URL(string: "https://example.com/a.png")!) }
        // Valid when attached, gone when added: the request is not scheduled.
        let url = try file("clip.mp4", bytes: 100)
        var content = NotificationContent(body: "video")
        content.attachments = [try NotificationAttachment(identifier: "clip", fileURL: url)]
        try FileManager.default.removeItem(at: url)
        var center = center()
        #expect(throws: NotificationCenterError.self) {
            try center.add(NotificationRequest(identifier: "v", content: content, trigger: .timeInterval(seconds: 5, repeats: false)))
        }
        #expect(center.pending.isEmpty)
    }

    @Test func categoriesAreReplacedAsAWholeAndARepeatedActionIdIsAcceptedWithAWarning() throws {
        var center = center()
        let reply = NotificationAction(identifier: "reply", title: "Reply", textInput: .init(buttonTitle: "Send", placeholder: "Message"))
        #expect(center.setCategories([NotificationCategory(identifier: "message", actions: [reply])]).isEmpty)
        center.setCategories([NotificationCategory(identifier: "order", actions: [NotificationAction(identifier: "track", title: "Track")])])
        #expect(center.category("message") == nil)
        #expect(center.category("order") != nil && center.category("Order") == nil)
        let repeated = center.setCategories([
            NotificationCategory(identifier: "a", actions: [NotificationAction(identifier: "track", title: "Track")]),
            NotificationCategory(identifier: "b", actions: [NotificationAction(identifier: "track", title: "Track too")]),
        ])
        #expect(repeated == ["track"])
        #expect(center.category("a") != nil && center.category("b") != nil)  // iOS keeps every category
    }
}
