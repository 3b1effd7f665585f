import Foundation
import HeraldDevice

/// How notifications of a category behave (Apple's `UNNotificationCategoryOptions`).
public struct UNNotificationCategoryOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// A dismissal is sent to the delegate as `UNNotificationDismissActionIdentifier`.
    public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)
    public static let allowInCarPlay = UNNotificationCategoryOptions(rawValue: 1 << 1)
    public static let hiddenPreviewsShowTitle = UNNotificationCategoryOptions(rawValue: 1 << 2)
    public static let hiddenPreviewsShowSubtitle = UNNotificationCategoryOptions(rawValue: 1 << 3)
    @available(*, deprecated, message: "Apple deprecated allowAnnouncement in iOS 15")
    public static let allowAnnouncement = UNNotificationCategoryOptions(rawValue: 1 << 4)
}

/// A kind of notification the app handles, with its actions (Apple's `UNNotificationCategory`).
/// A notification uses it when its `categoryIdentifier` (`aps.category`) is this identifier,
/// case-sensitively, and the app registered it with `setNotificationCategories(_:)`.
public class UNNotificationCategory: NSObject, @unchecked Sendable {
    public let identifier: String
    public let actions: [UNNotificationAction]
    public let intentIdentifiers: [String]
    public let options: UNNotificationCategoryOptions
    public let hiddenPreviewsBodyPlaceholder: String
    public let categorySummaryFormat: String

    public convenience init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], options: UNNotificationCategoryOptions = []) {
        self.init(identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers, hiddenPreviewsBodyPlaceholder: "",
                  categorySummaryFormat: "", options: options)
    }

    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], hiddenPreviewsBodyPlaceholder: String,
        options: UNNotificationCategoryOptions = []
    ) {
        self.init(identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
                  hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder, categorySummaryFormat: "", options: options)
    }

    public init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], hiddenPreviewsBodyPlaceholder: String?,
        categorySummaryFormat: String?, options: UNNotificationCategoryOptions = []
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.options = options
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder ?? ""
        self.categorySummaryFormat = categorySummaryFormat ?? ""
        super.init()
    }

    var deviceCategory: NotificationCategory {
        NotificationCategory(
            identifier: identifier, actions: actions.map(\.deviceAction), intentIdentifiers: intentIdentifiers,
            options: NotificationCategory.Options(rawValue: Int(options.rawValue)),
            hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder.isEmpty ? nil : hiddenPreviewsBodyPlaceholder
        )
    }

    static func make(device category: NotificationCategory) -> UNNotificationCategory {
        UNNotificationCategory(
            identifier: category.identifier, actions: category.actions.map(UNNotificationAction.make(device:)),
            intentIdentifiers: category.intentIdentifiers, hiddenPreviewsBodyPlaceholder: category.hiddenPreviewsBodyPlaceholder,
            categorySummaryFormat: nil, options: UNNotificationCategoryOptions(rawValue: UInt(category.options.rawValue))
        )
    }

    public override func isEqual(_ object: Any?) -> Bool { (object as? UNNotificationCategory)?.identifier == identifier }
    public override var hash: Int { identifier.hashValue }
}
