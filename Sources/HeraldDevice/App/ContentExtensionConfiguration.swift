/// What a notification content extension's Info.plist declares (seeds 000 and 004), read and
/// checked as iOS does.
public struct ContentExtensionConfiguration: Sendable, Equatable {
    public static let categoryKey = "UNNotificationExtensionCategory"
    public static let sizeRatioKey = "UNNotificationExtensionInitialContentSizeRatio"
    public static let defaultContentHiddenKey = "UNNotificationExtensionDefaultContentHidden"
    public static let overridesDefaultTitleKey = "UNNotificationExtensionOverridesDefaultTitle"
    public static let userInteractionEnabledKey = "UNNotificationExtensionUserInteractionEnabled"
    static let attributeKeys = [categoryKey, sizeRatioKey, defaultContentHiddenKey, overridesDefaultTitleKey, userInteractionEnabledKey]

    /// The extension's folder name.
    public var extensionName: String
    /// The categories whose notifications this extension shows.
    public var categories: [String]
    /// The view's initial height as a fraction of its width.
    public var initialContentSizeRatio: Double
    /// The system's title and body are hidden under the custom view.
    public var defaultContentHidden: Bool
    /// The extension's title replaces the app name.
    public var overridesDefaultTitle: Bool
    /// The view receives touches (iOS 12 and later).
    public var userInteractionEnabled: Bool

    /// Reads a content extension's plist. Returns `nil` configuration when an error means iOS
    /// would not use the extension; problems lists every error and warning found.
    public static func read(_ bundle: AppExtensionBundle) -> (configuration: ContentExtensionConfiguration?, problems: [PlistProblem]) {
        var problems: [PlistProblem] = []
        func report(_ severity: PlistProblem.Severity, _ keyPath: String, _ message: String) {
            problems.append(PlistProblem(severity: severity, extensionName: bundle.name, keyPath: keyPath, message: message))
        }
        for key in attributeKeys where bundle.infoPlist[key] != nil {
            report(.error, key, "is at the top level of Info.plist; iOS reads it only inside NSExtension ▸ NSExtensionAttributes")
        }
        guard let nsExtension = bundle.infoPlist["NSExtension"]?.dictionaryValue else {
            report(.error, "NSExtension", "is missing; a content extension declares its point and attributes there")
            return (nil, problems)
        }
        for key in attributeKeys where nsExtension[key] != nil {
            report(.error, "NSExtension.\(key)", "is directly under NSExtension; move it into NSExtensionAttributes, where iOS reads it")
        }
        let point = nsExtension["NSExtensionPointIdentifier"]?.stringValue
        if point != AppExtensionBundle.Kind.contentIdentifier {
            report(.error, "NSExtension.NSExtensionPointIdentifier",
                   "is \(point.map { "\"\($0)\"" } ?? "missing"); a content extension must say \(AppExtensionBundle.Kind.contentIdentifier)")
        }
        switch (nsExtension["NSExtensionMainStoryboard"] != nil, nsExtension["NSExtensionPrincipalClass"] != nil) {
        case (true, true):
            report(.error, "NSExtension", "has both NSExtensionMainStoryboard and NSExtensionPrincipalClass; keep exactly one (delete the storyboard key to build the view in code)")
        case (false, false):
            report(.error, "NSExtension", "has neither NSExtensionMainStoryboard nor NSExtensionPrincipalClass; iOS cannot create the view controller")
        default:
            break
        }
        let attributesPath = "NSExtension.NSExtensionAttributes"
        guard let attributes = nsExtension["NSExtensionAttributes"]?.dictionaryValue else {
            report(.error, attributesPath, "is missing; it must hold \(categoryKey) and \(sizeRatioKey)")
            return (nil, problems)
        }
        var categories: [String] = []
        switch attributes[categoryKey] {
        case .string(let category)?:
            categories = [category]
        case .array(let values)?:
            categories = values.compactMap(\.stringValue)
            if categories.count != values.count { report(.error, "\(attributesPath).\(categoryKey)", "has an element that is not a String") }
        case let other?:
            report(.error, "\(attributesPath).\(categoryKey)", "is a \(other.typeName); it must be a String or an Array of Strings naming categories")
        case nil:
            report(.error, "\(attributesPath).\(categoryKey)", "is missing; without it the extension is never used (it must equal the payload's aps.category)")
        }
        if attributes[categoryKey] != nil, categories.filter({ !$0.isEmpty }).isEmpty {
            report(.error, "\(attributesPath).\(categoryKey)", "names no category")
        }
        var ratio = 1.0
        switch attributes[sizeRatioKey] {
        case let value? where value.doubleValue != nil:
            ratio = value.doubleValue!
            if ratio <= 0 {
                report(.error, "\(attributesPath).\(sizeRatioKey)", "is \(ratio); the height/width ratio must be greater than 0")
            } else if ratio > 1 {
                report(.warning, "\(attributesPath).\(sizeRatioKey)",
                       "is \(ratio): the view starts taller than it is wide, then animates to the size its constraints give (seed 004 advises 0–1)")
            }
        case let value?:
            report(.error, "\(attributesPath).\(sizeRatioKey)", "is a \(value.typeName); it must be a Number (height / width, e.g. 0.5)")
        case nil:
            report(.error, "\(attributesPath).\(sizeRatioKey)", "is missing; iOS needs the initial height / width ratio (e.g. 0.5)")
        }
        func flag(_ key: String) -> Bool {
            guard let value = attributes[key] else { return false }
            guard let bool = value.boolValue else {
                report(.warning, "\(attributesPath).\(key)", "is a \(value.typeName); it must be a Boolean, so iOS ignores it")
                return false
            }
            return bool
        }
        let configuration = ContentExtensionConfiguration(
            extensionName: bundle.name, categories: categories, initialContentSizeRatio: ratio,
            defaultContentHidden: flag(defaultContentHiddenKey), overridesDefaultTitle: flag(overridesDefaultTitleKey),
            userInteractionEnabled: flag(userInteractionEnabledKey)
        )
        return (problems.contains { $0.severity == .error } ? nil : configuration, problems)
    }

    /// Checks a service extension's plist: the point identifier and a principal class.
    public static func serviceExtensionProblems(_ bundle: AppExtensionBundle) -> [PlistProblem] {
        var problems: [PlistProblem] = []
        let nsExtension = bundle.infoPlist["NSExtension"]?.dictionaryValue ?? [:]
        if nsExtension["NSExtensionPrincipalClass"]?.stringValue == nil {
            problems.append(PlistProblem(
                severity: .error, extensionName: bundle.name, keyPath: "NSExtension.NSExtensionPrincipalClass",
                message: "is missing; iOS cannot create the UNNotificationServiceExtension subclass"
            ))
        }
        return problems
    }
}
