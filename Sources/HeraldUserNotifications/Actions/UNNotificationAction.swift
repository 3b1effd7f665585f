import Foundation
import HeraldDevice

/// An icon for an action button (Apple's `UNNotificationActionIcon`).
public class UNNotificationActionIcon: NSObject, @unchecked Sendable {
    let name: String
    let isSystemImage: Bool

    public convenience init(systemImageName: String) {
        self.init(name: systemImageName, isSystemImage: true)
    }

    public convenience init(templateImageName: String) {
        self.init(name: templateImageName, isSystemImage: false)
    }

    private init(name: String, isSystemImage: Bool) {
        self.name = name
        self.isSystemImage = isSystemImage
        super.init()
    }
}

/// A button shown with notifications of a category (Apple's `UNNotificationAction`).
public class UNNotificationAction: NSObject, @unchecked Sendable {
    public let identifier: String
    public let title: String
    public let options: UNNotificationActionOptions
    public let icon: UNNotificationActionIcon?

    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.init(identifier: identifier, title: title, options: options, icon: nil)
    }

    public init(identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.icon = icon
        super.init()
    }

    var deviceAction: NotificationAction {
        NotificationAction(identifier: identifier, title: title, options: NotificationAction.Options(rawValue: Int(options.rawValue)))
    }

    static func make(device action: NotificationAction) -> UNNotificationAction {
        let options = UNNotificationActionOptions(rawValue: UInt(action.options.rawValue))
        guard let input = action.textInput else { return UNNotificationAction(identifier: action.identifier, title: action.title, options: options) }
        return UNTextInputNotificationAction(
            identifier: action.identifier, title: action.title, options: options,
            textInputButtonTitle: input.buttonTitle, textInputPlaceholder: input.placeholder
        )
    }
}

/// An action that asks the user to type (Apple's `UNTextInputNotificationAction`); the text
/// arrives in a ``UNTextInputNotificationResponse``.
public class UNTextInputNotificationAction: UNNotificationAction, @unchecked Sendable {
    public let textInputButtonTitle: String
    public let textInputPlaceholder: String

    public convenience init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], textInputButtonTitle: String, textInputPlaceholder: String
    ) {
        self.init(identifier: identifier, title: title, options: options, icon: nil,
                  textInputButtonTitle: textInputButtonTitle, textInputPlaceholder: textInputPlaceholder)
    }

    public init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?,
        textInputButtonTitle: String, textInputPlaceholder: String
    ) {
        self.textInputButtonTitle = textInputButtonTitle
        self.textInputPlaceholder = textInputPlaceholder
        super.init(identifier: identifier, title: title, options: options, icon: icon)
    }

    override var deviceAction: NotificationAction {
        var action = super.deviceAction
        action.textInput = .init(buttonTitle: textInputButtonTitle, placeholder: textInputPlaceholder)
        return action
    }
}
