import Foundation

/// A service extension made of shipped steps, as a scenario (`service-extension:`) or
/// `herald device explain --extension` names it: the steps run in order on the same best
/// attempt, then the content handler is called. The steps' code is HeraldKit's
/// (`HeraldNotificationService`), run by a ``ServiceExtensionMaker``; this is only the recipe.
public struct ServiceExtensionRecipe: Sendable, Equatable {
    public enum Step: Sendable, Equatable {
        /// `"%@ [modified]"` puts the original title where `%@` is (seeds 000, 002, 003).
        case rewriteTitle(format: String, subtitle: String?, body: String?)
        /// Sets the category (seed 000's extension).
        case setCategory(String)
        /// Downloads the media at the first of `keyPaths` holding a URL and attaches it.
        case downloadMedia(keyPaths: [String], attachmentIdentifier: String)
        /// Opens a sealed alert (`herald-sealed`) with this Curve25519 private key (32 raw bytes).
        case decrypt(privateKey: Data)
        /// Makes a communication notification from `sender` or `sender_image_url` (seed 003).
        case communication
        /// Works for this many virtual seconds.
        case wait(seconds: Double)
        /// Calls `setNotificationCategories` with these (seed 000's extension registers its own).
        case registerCategories([NotificationCategory])
        /// Delivers empty content to suppress the notification (needs the filtering entitlement).
        case suppress

        /// The name scenarios use.
        public var name: String {
            switch self {
            case .rewriteTitle: "rewrite-title"
            case .setCategory: "set-category"
            case .downloadMedia: "download-media"
            case .decrypt: "decrypt"
            case .communication: "communication"
            case .wait: "wait"
            case .registerCategories: "register-categories"
            case .suppress: "suppress"
            }
        }
    }

    /// The media key paths looked at by default: seed 000's `media.url` (with `media.type`) and
    /// seed 002's `aps.imageAbsoluteString` / `imageAbsoluteString`.
    public static let defaultMediaKeyPaths = ["media.url", "aps.imageAbsoluteString", "imageAbsoluteString"]

    public var steps: [Step]
    /// When false, the extension never calls its content handler, not even when time runs out.
    public var answers: Bool

    public init(steps: [Step], answers: Bool = true) {
        self.steps = steps
        self.answers = answers
    }

    /// `rewrite-title + download-media`, or `pass-through`.
    public var name: String { steps.isEmpty ? "pass-through" : steps.map(\.name).joined(separator: " + ") }
}

/// Makes the code that runs a recipe (HeraldKit's, through `HeraldShippedExtensions`).
public protocol ServiceExtensionMaker: Sendable {
    func serviceExtension(for recipe: ServiceExtensionRecipe, app: AppBundle) -> any NotificationServiceExtension
}
