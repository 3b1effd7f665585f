import Foundation

/// An app extension inside an app (a `PlugIns/NAME.appex` folder with its own Info.plist).
public struct AppExtensionBundle: Sendable, Equatable {
    /// The extension points the simulated device knows.
    public enum Kind: Sendable, Equatable {
        /// `com.apple.usernotifications.service`: rewrites remote notifications.
        case notificationService
        /// `com.apple.usernotifications.content-extension`: a custom view for some categories.
        case notificationContent
        /// Any other extension point (ignored by the notification system).
        case other(String)

        public static let serviceIdentifier = "com.apple.usernotifications.service"
        public static let contentIdentifier = "com.apple.usernotifications.content-extension"

        init(pointIdentifier: String) {
            switch pointIdentifier {
            case Self.serviceIdentifier: self = .notificationService
            case Self.contentIdentifier: self = .notificationContent
            default: self = .other(pointIdentifier)
            }
        }
    }

    /// The folder name without `.appex`.
    public var name: String
    public var kind: Kind
    /// The whole Info.plist.
    public var infoPlist: [String: PropertyListValue]
    public var entitlements: [String: PropertyListValue]

    public init(name: String, kind: Kind, infoPlist: [String: PropertyListValue], entitlements: [String: PropertyListValue] = [:]) {
        self.name = name
        self.kind = kind
        self.infoPlist = infoPlist
        self.entitlements = entitlements
    }

    /// A service extension declared with the keys Xcode's template writes.
    public static func serviceExtension(name: String = "NotificationService", userActivityTypes: [String] = []) -> AppExtensionBundle {
        var plist: [String: PropertyListValue] = [
            "NSExtension": .dictionary([
                "NSExtensionPointIdentifier": .string(Kind.serviceIdentifier),
                "NSExtensionPrincipalClass": .string("$(PRODUCT_MODULE_NAME).NotificationService"),
            ]),
        ]
        if !userActivityTypes.isEmpty { plist["NSUserActivityTypes"] = .array(userActivityTypes.map(PropertyListValue.string)) }
        return AppExtensionBundle(name: name, kind: .notificationService, infoPlist: plist)
    }

    /// `CFBundleIdentifier`, when the plist has one.
    public var bundleIdentifier: String? { infoPlist["CFBundleIdentifier"]?.stringValue }

    /// `NSUserActivityTypes` of this extension's Info.plist.
    public var userActivityTypes: [String] {
        infoPlist["NSUserActivityTypes"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// Loads `FOLDER/Info.plist` and an optional `*.entitlements` file.
    static func load(from folder: URL) throws(AppBundleError) -> AppExtensionBundle {
        let name = folder.deletingPathExtension().lastPathComponent
        let plistURL = folder.appendingPathComponent("Info.plist")
        guard FileManager.default.fileExists(atPath: plistURL.path) else {
            throw .missing("the extension \(folder.lastPathComponent) has no Info.plist (\(plistURL.path))")
        }
        guard let plist = try PropertyListValue.read(contentsOf: plistURL).dictionaryValue else {
            throw .unreadable(path: plistURL.path, reason: "is not a dictionary at its top level")
        }
        let point = plist["NSExtension"]?["NSExtensionPointIdentifier"]?.stringValue ?? ""
        let entitlements = try AppBundle.loadEntitlements(in: folder)
        return AppExtensionBundle(name: name, kind: Kind(pointIdentifier: point), infoPlist: plist, entitlements: entitlements)
    }
}
