import Foundation
import HeraldCore
import HeraldDevice

/// Asks for PushKit notifications and hands them to its delegate (PushKit's `PKPushRegistry`).
///
/// Setting ``desiredPushTypes`` to `[.voIP]` registers the app with the simulated device's
/// PushKit: VoIP pushes then reach the delegate's
/// `pushRegistry(_:didReceiveIncomingPushWith:for:completion:)`, launching the app if needed, and
/// the device applies the iOS 13 rule (no call reported to CallKit → the app is terminated).
/// The token comes from the app's `herald sandbox` when it was launched with one (VoIP pushes to
/// it are then delivered), else it is made locally.
public class PKPushRegistry: NSObject, @unchecked Sendable {
    public weak var delegate: (any PKPushRegistryDelegate)?
    /// Setting it registers (or, with no VoIP type, unregisters) the push types.
    public var desiredPushTypes: Set<PKPushType>? {
        didSet { register(desiredPushTypes ?? []) }
    }
    private var tokens: [PKPushType: Data] = [:]
    private let lock = NSLock()
    private let runtime: WeakRuntime

    /// `queue` is where delegate methods run; as on iOS, `nil` means the main queue (here the
    /// delegate is always called on the main actor).
    public init(queue: DispatchQueue?) {
        runtime = WeakRuntime(AppRuntime.running)
        super.init()
    }

    /// The token the registry got for `type`, if it has one.
    public func pushToken(for type: PKPushType) -> Data? {
        lock.withLock { tokens[type] }
    }

    private func register(_ types: Set<PKPushType>) {
        guard let runtime = runtime.value else { return }
        let registry = UncheckedBox(self)
        runtime.track {
            let wantsVoIP = types.contains(.voIP)
            try? await runtime.device.setPushKitDelegate(wantsVoIP ? PushKitBridge(registry: registry.value, runtime: runtime) : nil, app: runtime.id)
            guard wantsVoIP else {
                runtime.stopVoIPPushes()
                return
            }
            let token: Data
            switch await runtime.registerForVoIPPushes() {
            case .success(let hex): token = Data((try? DeviceToken(parsing: hex))?.bytes ?? [])
            case .failure: token = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
            }
            registry.value.lock.withLock { registry.value.tokens[.voIP] = token }
            await runtime.note("PushKit registered for VoIP pushes: token \(token.prefix(4).map { String(format: "%02x", $0) }.joined())…",
                               details: ["call": "pushRegistry-didUpdate", "token": token.map { String(format: "%02x", $0) }.joined()])
            await runtime.run {
                await MainActor.run {
                    let credentials = PKPushCredentials(type: .voIP, token: token)
                    registry.value.delegate?.pushRegistry(registry.value, didUpdate: credentials, for: .voIP)
                }
            }
        }
    }
}
