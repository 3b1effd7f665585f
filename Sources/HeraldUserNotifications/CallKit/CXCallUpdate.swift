import Foundation

/// What is known of a call, reported to the system (CallKit's `CXCallUpdate`).
public class CXCallUpdate: NSObject, @unchecked Sendable {
    /// The caller of an incoming call.
    public var remoteHandle: CXHandle?
    /// The name the call screen shows instead of the handle.
    public var localizedCallerName: String?
    public var hasVideo = false

    public override init() {
        super.init()
    }
}
