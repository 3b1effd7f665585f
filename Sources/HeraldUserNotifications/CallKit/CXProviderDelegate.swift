import Foundation

/// The app's object that hears of the provider's events (CallKit's `CXProviderDelegate`).
public protocol CXProviderDelegate: NSObjectProtocol {
    /// The provider was reset: end every call.
    func providerDidReset(_ provider: CXProvider)
}
