import Foundation

/// The token a registry got for one push type: what the provider sends VoIP pushes to.
public class PKPushCredentials: NSObject, @unchecked Sendable {
    public let type: PKPushType
    public let token: Data

    init(type: PKPushType, token: Data) {
        self.type = type
        self.token = token
        super.init()
    }
}
