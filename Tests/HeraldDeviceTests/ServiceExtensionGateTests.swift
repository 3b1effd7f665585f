import HeraldCore
import HeraldDevice
import Testing

@Suite("When the service extension runs")
struct ServiceExtensionGateTests {
    func aps(_ json: String) throws -> APS { try Payload(decoding: json).aps }

    @Test func runsWithMutableContentAndAlertText() throws {
        #expect(ServiceExtensionGate.decide(try aps(#"{"aps":{"alert":{"title":"Hi"},"mutable-content":1}}"#), alertsAllowed: true, hasExtension: true) == .runs)
        #expect(ServiceExtensionGate.decide(try aps(#"{"aps":{"alert":"Hello","mutable-content":1}}"#), alertsAllowed: true, hasExtension: true) == .runs)
        #expect(ServiceExtensionGate.decide(try aps(#"{"aps":{"alert":{"loc-key":"NEW_MESSAGE"},"mutable-content":1}}"#), alertsAllowed: true, hasExtension: true) == .runs)
    }

    @Test(arguments: [
        (#"{"aps":{"sound":"default","mutable-content":1}}"#, "no title, subtitle or body"),
        (#"{"aps":{"badge":3,"mutable-content":1}}"#, "no title, subtitle or body"),
        (#"{"aps":{"alert":{"title":""},"mutable-content":1}}"#, "no title, subtitle or body"),
        (#"{"aps":{"alert":{"title":"Hi"}}}"#, "mutable-content is not 1"),
    ])
    func skippedWithAReason(payload: String, reason: String) throws {
        guard case .skipped(let why) = ServiceExtensionGate.decide(try aps(payload), alertsAllowed: true, hasExtension: true) else {
            Issue.record("the extension should not run for \(payload)")
            return
        }
        #expect(why.contains(reason))
    }

    @Test func notWhenAlertsAreDisabledOrThereIsNoExtension() throws {
        let payload = try aps(#"{"aps":{"alert":{"body":"Hi"},"mutable-content":1}}"#)
        #expect(ServiceExtensionGate.decide(payload, alertsAllowed: false, hasExtension: true) == .skipped(reason: "alerts are disabled for this app"))
        #expect(ServiceExtensionGate.decide(payload, alertsAllowed: true, hasExtension: false) == .skipped(reason: "the app has no notification service extension"))
    }
}
