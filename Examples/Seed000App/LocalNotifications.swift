// Seed 000's local notifications, ported from Objective-C to Swift: one scheduled 5 s ahead
// with a title, subtitle, body, badge, the bundled sound and an image attachment, and cancelling
// it by its identifier. The image's URL is passed in (on iOS from Bundle.main).

#if canImport(UserNotifications)
import UserNotifications
#else
import HeraldUserNotifications
#endif

enum LocalNotifications {
    static let requestIdentifier = "LocalNotiReqIdentifer"

    static func sendLocalNotification(attachmentImage: URL?) {
        let content = UNMutableNotificationContent()
        content.title = "通知-title"
        content.subtitle = "通知-subtitle"
        content.body = "通知-body"
        content.badge = 1
        content.userInfo = ["id": "LOCAL_NOTIFY_SCHEDULE_ID"]
        if let attachmentImage = attachmentImage {
            do {
                content.attachments = [try UNNotificationAttachment(identifier: "att1", url: attachmentImage, options: nil)]
            } catch {
                NSLog("attachment error %@", error.localizedDescription)
            }
        }
        content.launchImageName = "icon_certification_status1@2x"
        content.sound = UNNotificationSound(named: UNNotificationSoundName("sound01.wav"))
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false)
        let request = UNNotificationRequest(identifier: requestIdentifier, content: content, trigger: trigger)
        UNUserNotificationCenter.current().add(request) { error in
            if let error = error {
                NSLog("not scheduled: %@", error.localizedDescription)
            }
        }
    }

    static func cancelLocalNotifications() {
        UNUserNotificationCenter.current().getPendingNotificationRequests { requests in
            for request in requests where request.content.userInfo["id"] as? String == "LOCAL_NOTIFY_SCHEDULE_ID" {
                UNUserNotificationCenter.current().removePendingNotificationRequests(withIdentifiers: [request.identifier])
            }
        }
    }
}
