/// Something wrong in an extension's Info.plist, with where it is and what iOS does about it.
public struct PlistProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable, Equatable {
        /// iOS does not use the extension (or the key) at all.
        case error
        /// iOS uses it, but not as the developer most likely meant.
        case warning
    }

    public var severity: Severity
    /// The extension's folder name.
    public var extensionName: String
    /// The key path, e.g. `NSExtension.NSExtensionAttributes.UNNotificationExtensionCategory`.
    public var keyPath: String
    public var message: String

    public var description: String {
        "\(extensionName)/Info.plist: \(severity.rawValue): \(keyPath): \(message)"
    }
}
