import Foundation
import HeraldDevice
import Synchronization

/// Runs an app's own `UNNotificationServiceExtension` subclass in the simulated device: a new
/// instance per notification, in real time scaled to the device's 30 s, with what it did in the
/// transcript.
final class ServiceExtensionBridge: NotificationServiceExtension {
    let make: @Sendable () -> UNNotificationServiceExtension
    let name: String
    let app: WeakRuntime
    let virtualSecondsPerRealSecond: Double?
    private let instances = Mutex<[ObjectIdentifier: UncheckedBox<UNNotificationServiceExtension>]>([:])

    init(make: @escaping @Sendable () -> UNNotificationServiceExtension, runtime: AppRuntime, virtualSecondsPerRealSecond: Double) {
        self.make = make
        self.name = String(describing: type(of: make()))
        self.app = WeakRuntime(runtime)
        self.virtualSecondsPerRealSecond = virtualSecondsPerRealSecond
    }

    func didReceive(_ context: ServiceExtensionContext) async {
        guard let runtime = app.value else { return }
        let instance = make()
        let key = ObjectIdentifier(context)
        instances.withLock { $0[key] = UncheckedBox(instance) }
        let request = UNNotificationRequest(device: context.request, userInfo: context.payload.json, app: context.app, remote: true)
        context.log("\(name).didReceive(_:withContentHandler:) called")
        let name = name
        await runtime.run {
            instance.didReceive(request) { [self] content in
                instances.withLock { $0[key] = nil }
                context.log("\(name) called its content handler: \"\(content.title)\"" + (content.attachments.isEmpty ? "" : " with \(content.attachments.count) attachment(s)"))
                context.contentHandler(content.deviceContent)
            }
        }
    }

    func serviceExtensionTimeWillExpire(_ context: ServiceExtensionContext) {
        guard let instance = instances.withLock({ $0.removeValue(forKey: ObjectIdentifier(context)) }) else { return }
        context.log("\(name).serviceExtensionTimeWillExpire() called")
        instance.value.serviceExtensionTimeWillExpire()
    }
}
