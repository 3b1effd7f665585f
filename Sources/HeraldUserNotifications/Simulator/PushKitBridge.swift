import Foundation
import HeraldCore
import HeraldDevice

/// The device's side of an app's `PKPushRegistry`: hands a VoIP push to the registry's delegate
/// on the main actor, waits (bounded) for its completion handler, and tells the device whether a
/// call was reported to CallKit before it.
struct PushKitBridge: PushKitDelegate {
    let registry: UncheckedBox<PKPushRegistry>
    let app: WeakRuntime

    init(registry: PKPushRegistry, runtime: AppRuntime) {
        self.registry = UncheckedBox(registry)
        self.app = WeakRuntime(runtime)
    }

    func didReceiveIncomingPush(_ payload: JSONObject) async -> Bool {
        guard let runtime = app.value else { return false }
        let reportedBefore = runtime.callsReported.withLock { $0 }
        let registry = registry
        let value = UncheckedBox(PKPushPayload(type: .voIP, dictionaryPayload: PropertyListBridge.userInfo(payload)))
        let probe = CallProbe()
        let completed: Void? = await runtime.run {
            await probe.run {
                await CompletionWaiter.wait(timeout: runtime.callbackTimeout) { done in
                    Task { @MainActor in
                        guard let delegate = registry.value.delegate else { return done(()) }
                        delegate.pushRegistry(registry.value, didReceiveIncomingPushWith: value.value, for: .voIP, completion: { done(()) })
                    }
                }
            }
        }
        guard probe.wasImplemented else {
            await runtime.note("the PushKit delegate does not implement pushRegistry(_:didReceiveIncomingPushWith:for:completion:)",
                               details: ["call": "pushRegistry-didReceiveIncomingPush", "implemented": "false"])
            return false
        }
        if completed == nil {
            await runtime.note("pushRegistry(_:didReceiveIncomingPushWith:for:completion:) did not call its completion handler within \(runtime.callbackTimeout)",
                               details: ["call": "pushRegistry-didReceiveIncomingPush", "completion": "missing"])
        }
        return runtime.callsReported.withLock { $0 } > reportedBefore
    }
}
