import HeraldCore
import Testing

@testable import HeraldServer

@Suite struct DeliveryIDTests {
    @Test("a delivery's apns-id is SHA-256 of notification id, '/' and token, as a version 5 UUID: the same in every run and release")
    func derivedID() throws {
        let token = "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad"
        let id = DeliveryID.make(notificationID: "7c9e6679-7425-40de-944b-e07fc1f90ae7", token: token)
        // Worked out independently (Python's hashlib and uuid).
        #expect(id == (try NotificationID("83c78c52-2b16-545f-9f9d-f3d3bf895215")))
        #expect(DeliveryID.make(notificationID: "7c9e6679-7425-40de-944b-e07fc1f90ae7", token: "00" + token.dropFirst(2)) != id)
    }
}
