import Foundation

/// What the app's calls can do (CallKit's `CXProviderConfiguration`).
public class CXProviderConfiguration: NSObject, @unchecked Sendable {
    public var supportsVideo = false
    public var maximumCallGroups = 2
    public var maximumCallsPerCallGroup = 5

    public override init() {
        super.init()
    }
}
