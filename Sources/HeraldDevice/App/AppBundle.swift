import Foundation

/// An app installed on the simulated device: its Info.plist, entitlements, localized strings,
/// bundled resources (sounds, images) and extensions.
///
/// ``load(from:)`` reads a folder laid out like a built app:
///
/// ```
/// Demo/
///   Info.plist                      CFBundleIdentifier, NSUserActivityTypes, …
///   Demo.entitlements               aps-environment, capabilities (optional)
///   en.lproj/Localizable.strings    loc-key strings (optional, any languages)
///   sound01.wav, logo.png           resources (optional)
///   PlugIns/Service.appex/Info.plist
///   PlugIns/Content.appex/Info.plist
/// ```
public struct AppBundle: Sendable, Equatable {
    public var bundleIdentifier: String
    /// `CFBundleDisplayName`, else `CFBundleName`, else the last part of the bundle id.
    public var displayName: String
    public var infoPlist: [String: PropertyListValue]
    public var entitlements: [String: PropertyListValue]
    /// `Localizable.strings` per language (`en`, `zh-Hans`, `Base`…).
    public var localizations: [String: [String: String]]
    /// File names of the bundle's top-level resources.
    public var resources: Set<String>
    /// The folder it was loaded from, when it was.
    public var folder: URL?
    public var extensions: [AppExtensionBundle]

    public init(
        bundleIdentifier: String, displayName: String? = nil, infoPlist: [String: PropertyListValue] = [:],
        entitlements: [String: PropertyListValue] = [:], localizations: [String: [String: String]] = [:],
        resources: Set<String> = [], folder: URL? = nil, extensions: [AppExtensionBundle] = []
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.displayName = displayName
            ?? infoPlist["CFBundleDisplayName"]?.stringValue ?? infoPlist["CFBundleName"]?.stringValue
            ?? bundleIdentifier.split(separator: ".").last.map(String.init) ?? bundleIdentifier
        self.infoPlist = infoPlist
        self.entitlements = entitlements
        self.localizations = localizations
        self.resources = resources
        self.folder = folder
        self.extensions = extensions
    }

    /// The notification service extension, if the app ships one.
    public var serviceExtension: AppExtensionBundle? {
        extensions.first { $0.kind == .notificationService }
    }

    /// The notification content extensions, in folder-name order.
    public var contentExtensions: [AppExtensionBundle] {
        extensions.filter { $0.kind == .notificationContent }
    }

    /// `NSUserActivityTypes` of the app's Info.plist.
    public var userActivityTypes: [String] {
        infoPlist["NSUserActivityTypes"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// Whether an entitlement is granted: `true`, or a non-empty string or array.
    public func hasEntitlement(_ key: String) -> Bool {
        switch entitlements[key] {
        case .bool(let value): value
        case .string(let value): !value.isEmpty
        case .array(let values): !values.isEmpty
        default: false
        }
    }

    /// The string for `key` in the first of `languages` that has it, then `en`, then `Base`.
    public func localizedString(_ key: String, languages: [String] = ["en"]) -> String? {
        for language in languages + ["en", "Base"] {
            if let value = localizations[language]?[key] { return value }
        }
        return localizations.keys.sorted().lazy.compactMap { localizations[$0]?[key] }.first
    }

    /// Reads an app folder (see the type's documentation for the layout).
    public static func load(from folder: URL) throws(AppBundleError) -> AppBundle {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .missing("the app folder \(folder.path) does not exist")
        }
        let plistURL = folder.appendingPathComponent("Info.plist")
        guard fileManager.fileExists(atPath: plistURL.path) else {
            throw .missing("the app folder \(folder.path) has no Info.plist")
        }
        guard let plist = try PropertyListValue.read(contentsOf: plistURL).dictionaryValue else {
            throw .unreadable(path: plistURL.path, reason: "is not a dictionary at its top level")
        }
        guard let bundleIdentifier = plist["CFBundleIdentifier"]?.stringValue, !bundleIdentifier.isEmpty else {
            throw .missing("\(plistURL.path) has no CFBundleIdentifier (the app's bundle id, which is the APNs topic)")
        }
        let entries = (try? fileManager.contentsOfDirectory(atPath: folder.path).sorted()) ?? []
        var localizations: [String: [String: String]] = [:]
        var resources: Set<String> = []
        for entry in entries {
            let url = folder.appendingPathComponent(entry)
            if entry.hasSuffix(".lproj") {
                let stringsURL = url.appendingPathComponent("Localizable.strings")
                guard fileManager.fileExists(atPath: stringsURL.path) else { continue }
                guard let table = try PropertyListValue.read(contentsOf: stringsURL).dictionaryValue else {
                    throw .unreadable(path: stringsURL.path, reason: "is not a strings table")
                }
                localizations[String(entry.dropLast(6))] = table.compactMapValues(\.stringValue)
            } else if entry != "Info.plist", entry != "PlugIns", !entry.hasSuffix(".entitlements") {
                resources.insert(entry)
            }
        }
        var extensions: [AppExtensionBundle] = []
        let plugIns = folder.appendingPathComponent("PlugIns")
        for entry in ((try? fileManager.contentsOfDirectory(atPath: plugIns.path)) ?? []).sorted() where entry.hasSuffix(".appex") {
            extensions.append(try AppExtensionBundle.load(from: plugIns.appendingPathComponent(entry)))
        }
        return AppBundle(
            bundleIdentifier: bundleIdentifier, infoPlist: plist, entitlements: try loadEntitlements(in: folder),
            localizations: localizations, resources: resources, folder: folder, extensions: extensions
        )
    }

    /// The first `*.entitlements` file in `folder`, or none.
    static func loadEntitlements(in folder: URL) throws(AppBundleError) -> [String: PropertyListValue] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()) ?? []
        guard let name = entries.first(where: { $0.hasSuffix(".entitlements") }) else { return [:] }
        let url = folder.appendingPathComponent(name)
        guard let entitlements = try PropertyListValue.read(contentsOf: url).dictionaryValue else {
            throw .unreadable(path: url.path, reason: "is not a dictionary at its top level")
        }
        return entitlements
    }
}
