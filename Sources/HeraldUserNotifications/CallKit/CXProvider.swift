import Foundation

/// The app's telephony provider (CallKit's `CXProvider`). Reporting a new incoming call is what
/// a VoIP push's handler must do since the iOS 13 SDK; the simulated device checks that it did.
public class CXProvider: NSObject, @unchecked Sendable {
    public let configuration: CXProviderConfiguration
    private weak var delegate: (any CXProviderDelegate)?
    private let runtime: WeakRuntime

    public init(configuration: CXProviderConfiguration) {
        self.configuration = configuration
        runtime = WeakRuntime(AppRuntime.running)
        super.init()
    }

    /// Sets the delegate; its methods run on the main actor here (`queue` is not used).
    public func setDelegate(_ delegate: (any CXProviderDelegate)?, queue: DispatchQueue?) {
        self.delegate = delegate
    }

    /// Reports an incoming call: the system shows the call screen. `completion` gets `nil` (the
    /// simulated system allows every call).
    public func reportNewIncomingCall(with UUID: UUID, update: CXCallUpdate, completion: @escaping @Sendable ((any Error)?) -> Void) {
        let caller = update.localizedCallerName ?? update.remoteHandle?.value ?? "unknown caller"
        guard let runtime = AppRuntime.current ?? runtime.value else { return completion(nil) }
        runtime.callsReported.withLock { $0 += 1 }
        runtime.track {
            await runtime.note("reportNewIncomingCall: the call screen shows \(caller)" + (update.hasVideo ? " (video)" : ""),
                               details: ["call": "reportNewIncomingCall"])
            await MainActor.run { completion(nil) }
        }
    }

    /// `reportNewIncomingCall(with:update:completion:)` as an async call.
    public func reportNewIncomingCall(with UUID: UUID, update: CXCallUpdate) async throws {
        let box = UncheckedBox(update)
        let error: (any Error)? = await withCheckedContinuation { continuation in
            reportNewIncomingCall(with: UUID, update: box.value) { continuation.resume(returning: $0) }
        }
        if let error { throw error }
    }
}
