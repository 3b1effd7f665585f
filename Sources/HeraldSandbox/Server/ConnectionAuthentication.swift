import Foundation
import HeraldCore

/// What one connection has established about its provider: the team and first key of its
/// tokens, the last token verified (so a reused token is not verified again), or its client
/// certificate. Lives on the connection's event loop.
final class ConnectionAuthentication {
    /// Set for mutual-TLS connections: the client certificate's identity.
    var certificate: ClientCertificateIdentity?
    /// The team of the first valid token; a connection carries one team's tokens.
    var teamID: String?
    var lastAuthorization: String?
    var lastVerified: VerifiedProviderToken?
    /// True once a request with a valid token succeeded; until then APNs allows one stream.
    var unlocked = false
    var streamsServed = 0
    /// The last request linted on this connection (see ``LintMemo``).
    var lintMemo: LintMemo?
    /// Makes this connection's apns-id and apns-unique-id values.
    var random = FastRandomGenerator()

    init(certificate: ClientCertificateIdentity? = nil) {
        self.certificate = certificate
        self.unlocked = certificate != nil
    }
}
