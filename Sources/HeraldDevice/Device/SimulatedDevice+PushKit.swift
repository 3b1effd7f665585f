import Foundation
import HeraldCore

extension SimulatedDevice {
    /// VoIP pushes a PushKit app may fail to report to CallKit before iOS stops launching it for
    /// them. Apple says only "repeatedly"; Herald's assumption, so a scenario can show the rule.
    public static let voipMissesBeforeDeliveryStops = 3

    /// Sets the app's PushKit delegate (a `PKPushRegistry` for `.voIP`); `nil` removes it.
    public func setPushKitDelegate(_ delegate: (any PushKitDelegate)?, app: String) throws(DeviceError) {
        var installed = try installed(app)
        installed.pushKit = delegate
        apps[app] = installed
    }

    /// A `voip` push: PushKit hands it to the app (waking or launching it); it is never shown as
    /// a notification. An app that reports no call to CallKit is terminated, and after
    /// ``voipMissesBeforeDeliveryStops`` such pushes iOS stops delivering them until the user
    /// opens the app.
    func receiveVoIP(_ payload: Payload, app id: String, notification: String) async {
        guard var installed = apps[id] else { return }
        guard let delegate = installed.pushKit else {
            record(.pushNotDelivered, app: id, notification: notification, details: ["reason": "no-pushkit-registry"],
                   "a VoIP push goes to PushKit, and the app has no PKPushRegistry for .voIP: nothing happens (VoIP pushes are never shown as notifications)")
            return
        }
        if installed.voipMisses >= Self.voipMissesBeforeDeliveryStops {
            record(.pushNotDelivered, app: id, notification: notification, details: ["reason": "voip-stopped"],
                   "iOS no longer launches the app for VoIP pushes: it failed to report \(installed.voipMisses) of them to CallKit; the user must open the app")
            return
        }
        switch installed.state {
        case .foreground:
            break
        case .background:
            record(.appWoken, app: id, notification: notification, details: ["reason": "voip"], "app woken in the background for the VoIP push")
        case .notRunning:
            installed.state = .background
            installed.forceQuit = false
            apps[id] = installed
            record(.appLaunched, app: id, notification: notification, details: ["state": "background"],
                   "app launched in the background for the VoIP push (PushKit launches it even after a force quit)")
        }
        let reported = await delegate.didReceiveIncomingPush(payload.json)
        guard var current = apps[id] else { return }
        guard !reported else {
            current.voipMisses = 0
            apps[id] = current
            record(.pushKit, app: id, notification: notification, details: ["reported-call": "true", "state": current.state.rawValue],
                   "pushRegistry(_:didReceiveIncomingPushWith:for:completion:) reported the incoming call to CallKit: the call UI shows")
            return
        }
        current.voipMisses += 1
        current.state = .notRunning
        apps[id] = current
        record(.pushKit, app: id, notification: notification, details: ["reported-call": "false", "misses": String(current.voipMisses)],
               "pushRegistry(_:didReceiveIncomingPushWith:for:completion:) finished without reporting a call to CallKit")
        let left = Self.voipMissesBeforeDeliveryStops - current.voipMisses
        record(.appTerminated, app: id, notification: notification, details: ["reason": "no-call-reported"],
               "iOS terminated the app: since the iOS 13 SDK a VoIP push must be reported to CallKit as a new incoming call before the handler returns"
                + (left > 0 ? " (\(left) more and iOS stops launching it for VoIP pushes)" : "; iOS stops launching it for VoIP pushes"))
    }
}
