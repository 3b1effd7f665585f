import HeraldCore

/// The app's `PKPushRegistryDelegate` for VoIP pushes (a registry with `desiredPushTypes`
/// `[.voIP]`), as a pluggable handler.
public protocol PushKitDelegate: Sendable {
    /// `pushRegistry(_:didReceiveIncomingPushWith:for:completion:)` with the push's payload.
    /// Returns whether the app reported a new incoming call to CallKit
    /// (`CXProvider.reportNewIncomingCall`) before calling the completion handler: since the
    /// iOS 13 SDK, an app that does not is terminated.
    func didReceiveIncomingPush(_ payload: JSONObject) async -> Bool
}

/// A PushKit delegate that always, or never, reports a call, for scenarios.
public struct ScriptedPushKitDelegate: PushKitDelegate {
    public var reportsCall: Bool

    public init(reportsCall: Bool) {
        self.reportsCall = reportsCall
    }

    public func didReceiveIncomingPush(_ payload: JSONObject) async -> Bool { reportsCall }
}
