import Foundation

/// The app's object that gets PushKit tokens and pushes (PushKit's `PKPushRegistryDelegate`).
/// The optional methods have default implementations that tell the simulator they are missing.
public protocol PKPushRegistryDelegate: NSObjectProtocol {
    /// The registry got a token for `type`: send it to your server.
    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType)
    /// A VoIP push arrived. Since the iOS 13 SDK, report a new incoming call to CallKit
    /// (`CXProvider.reportNewIncomingCall`) before calling `completion`, or iOS terminates the app.
    func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
                      completion: @escaping @Sendable () -> Void)
    /// The token for `type` is no longer valid: tell your server.
    func pushRegistry(_ registry: PKPushRegistry, didInvalidatePushTokenFor type: PKPushType)
}

extension PKPushRegistryDelegate {
    public func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
                             completion: @escaping @Sendable () -> Void) {
        CallProbe.markUnimplemented()
        completion()
    }

    public func pushRegistry(_ registry: PKPushRegistry, didInvalidatePushTokenFor type: PKPushType) {}
}
