// Seed 000's notification content extension, ported from Objective-C to Swift: a view with the
// title, the subtitle marked "[ContentExtension modified]", the image the service extension put
// in userInfo["image"], and a hint line naming the action tapped. Its response handler answers
// "do not dismiss" to the four actions (the seed's delayed "dismiss" for ActionA comes after,
// and only the first answer counts), "dismiss" to anything else. The border colours the seed
// sets on the layers are left out: they change nothing the simulator can check.

#if canImport(UIKit)
import UIKit
#endif
#if canImport(UserNotifications)
import UserNotifications
#else
import HeraldUserNotifications
#endif
#if canImport(UserNotificationsUI)
import UserNotificationsUI
#endif

class NotificationViewController: UIViewController, UNNotificationContentExtension {
    static let margin: CGFloat = 15

    var label: UILabel!
    var subLabel: UILabel!
    var imageView: UIImageView!
    var hintLabel: UILabel!

    override func viewDidLoad() {
        super.viewDidLoad()
        let margin = Self.margin
        let origin = view.frame.origin
        let size = view.frame.size
        label = UILabel(frame: CGRect(x: margin, y: margin, width: size.width - margin * 2, height: 30))
        label.autoresizingMask = .flexibleWidth
        view.addSubview(label)
        subLabel = UILabel(frame: CGRect(x: margin, y: label.frame.maxY + 10, width: size.width - margin * 2, height: 30))
        subLabel.autoresizingMask = .flexibleWidth
        view.addSubview(subLabel)
        imageView = UIImageView(frame: CGRect(x: margin, y: subLabel.frame.maxY + 10, width: 100, height: 100))
        view.addSubview(imageView)
        hintLabel = UILabel(frame: CGRect(x: margin, y: imageView.frame.maxY + 10, width: size.width - margin * 2, height: 20))
        hintLabel.text = "我是hintLabel"
        hintLabel.font = UIFont.systemFont(ofSize: 14)
        hintLabel.textAlignment = .left
        view.addSubview(hintLabel)
        view.frame = CGRect(x: origin.x, y: origin.y, width: size.width, height: imageView.frame.maxY + margin)
    }

    func didReceive(_ notification: UNNotification) {
        label.text = notification.request.content.title
        subLabel.text = "\(notification.request.content.subtitle) [ContentExtension modified]"
        if let data = notification.request.content.userInfo["image"] as? Data {
            imageView.image = UIImage(data: data)
        }
    }

    func didReceive(_ response: UNNotificationResponse, completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void) {
        hintLabel.text = "触发了\(response.actionIdentifier)"
        switch response.actionIdentifier {
        case "ActionA":
            DispatchQueue.main.asyncAfter(deadline: .now() + 1.5) {
                completion(.dismiss)
            }
        case "ActionB", "ActionC", "ActionD":
            break
        default:
            completion(.dismiss)
        }
        completion(.doNotDismiss)
    }
}
