/// Simulated iPhones the console adds, each running an app folder, registered with the
/// in-process sandbox. `herald serve` runs them (HeraldDevice); HeraldServer only routes to them.
public protocol SimulatedPhones: Sendable {
    /// A new phone running the app `bundleID`, registered with the sandbox in `environment`.
    func add(bundleID: String, environment: String) async throws -> PhoneState
    /// The phones running `bundleID`.
    func phones(bundleID: String) async -> [PhoneState]
    func phone(id: String) async -> PhoneState?
    /// Taps a shown notification (`action` nil: the notification itself), with `text` for an
    /// action that takes text.
    func tap(id: String, notification: String, action: String?, text: String?) async throws -> PhoneState
    /// Locks or unlocks the phone (locking sends a foreground app to the background).
    func setLocked(id: String, locked: Bool) async throws -> PhoneState
    /// Takes the phone away (its token stays registered with the sandbox).
    func remove(id: String) async -> Bool
}

/// A simulated phone as the console draws it.
public struct PhoneState: Codable, Sendable, Hashable {
    public var id: String
    public var token: String
    public var bundleId: String
    public var appName: String
    public var environment: String
    public var locked: Bool
    public var badge: Int
    /// Shown notifications, newest first.
    public var notifications: [PhoneNotification]
    /// What the phone did, one line per event, oldest first (the last 200).
    public var transcript: [String]

    public init(
        id: String, token: String, bundleId: String, appName: String, environment: String, locked: Bool, badge: Int,
        notifications: [PhoneNotification], transcript: [String]
    ) {
        self.id = id
        self.token = token
        self.bundleId = bundleId
        self.appName = appName
        self.environment = environment
        self.locked = locked
        self.badge = badge
        self.notifications = notifications
        self.transcript = transcript
    }
}

/// A notification on a simulated phone's screen.
public struct PhoneNotification: Codable, Sendable, Hashable {
    public var identifier: String
    public var title: String
    public var subtitle: String
    public var body: String
    public var category: String?
    /// Attachments the service extension added (images, …).
    public var attachments: Int
    public var actions: [PhoneAction]
    /// The banner as the device draws it (SVG).
    public var svg: String

    public init(identifier: String, title: String, subtitle: String, body: String, category: String?, attachments: Int, actions: [PhoneAction], svg: String) {
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.category = category
        self.attachments = attachments
        self.actions = actions
        self.svg = svg
    }
}

/// A button under a notification.
public struct PhoneAction: Codable, Sendable, Hashable {
    public var id: String
    public var title: String
    public var destructive: Bool
    /// The text field's button and placeholder, for an action that takes text.
    public var textButton: String?
    public var textPlaceholder: String?

    public init(id: String, title: String, destructive: Bool, textButton: String?, textPlaceholder: String?) {
        self.id = id
        self.title = title
        self.destructive = destructive
        self.textButton = textButton
        self.textPlaceholder = textPlaceholder
    }
}

/// Why a phone could not be added or tapped.
public struct PhoneError: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// Whether it is the caller's mistake (400) rather than the server's state (409).
    public var isBadRequest: Bool

    public init(_ description: String, isBadRequest: Bool = true) {
        self.description = description
        self.isBadRequest = isBadRequest
    }
}
