/// A notification category (UNNotificationCategory): the actions shown for notifications whose
/// `aps.category` (or `categoryIdentifier`) names it, case-sensitively.
public struct NotificationCategory: Sendable, Equatable {
    public struct Options: OptionSet, Sendable, Equatable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Dismissing sends the dismiss action to the delegate (otherwise nothing is sent).
        public static let customDismissAction = Options(rawValue: 1)
        public static let allowInCarPlay = Options(rawValue: 2)
        public static let hiddenPreviewsShowTitle = Options(rawValue: 4)
        public static let hiddenPreviewsShowSubtitle = Options(rawValue: 8)
    }

    public var identifier: String
    public var actions: [NotificationAction]
    public var intentIdentifiers: [String]
    public var options: Options
    public var hiddenPreviewsBodyPlaceholder: String?

    /// The most buttons the expanded interface shows; later actions are not shown at all.
    public static let maximumShownActions = 10

    public init(
        identifier: String, actions: [NotificationAction], intentIdentifiers: [String] = [], options: Options = [],
        hiddenPreviewsBodyPlaceholder: String? = nil
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.options = options
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
    }
}

/// A button on a notification (UNNotificationAction, UNTextInputNotificationAction).
public struct NotificationAction: Sendable, Equatable {
    public struct Options: OptionSet, Sendable, Equatable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Only performed on an unlocked device.
        public static let authenticationRequired = Options(rawValue: 1)
        public static let destructive = Options(rawValue: 2)
        /// Launches the app into the foreground.
        public static let foreground = Options(rawValue: 4)
    }

    /// The text field of a text-input action.
    public struct TextInput: Sendable, Equatable {
        public var buttonTitle: String
        public var placeholder: String

        public init(buttonTitle: String, placeholder: String) {
            self.buttonTitle = buttonTitle
            self.placeholder = placeholder
        }
    }

    public var identifier: String
    public var title: String
    public var options: Options
    /// Set for a text-input action: the typed text comes back with the response.
    public var textInput: TextInput?

    public init(identifier: String, title: String, options: Options = [], textInput: TextInput? = nil) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.textInput = textInput
    }

    /// The action identifier of a tap on the notification itself.
    public static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
    /// The action identifier of a dismissal (sent only with `customDismissAction`).
    public static let dismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"
}
