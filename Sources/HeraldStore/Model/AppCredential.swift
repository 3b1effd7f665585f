import Foundation
import HeraldCore

/// How an app proves itself to APNs in one environment.
public struct AppCredential: Sendable, Hashable, Codable {
    /// What the credential is.
    public enum Secret: Sendable, Hashable, Codable {
        /// A provider key: the `.p8` file's PEM text and its 10-character key id.
        case token(keyID: String, pem: String)
        /// A certificate and key in a PKCS#12 (`.p12`) file, base64, with its password.
        case pkcs12(base64: String, password: String?)
    }

    public var environment: APNsEnvironment
    public var secret: Secret

    public init(environment: APNsEnvironment, secret: Secret) {
        self.environment = environment
        self.secret = secret
    }

    /// What can be shown of it: the kind and key id, never the key.
    public var summary: String {
        switch secret {
        case .token(let keyID, _): "p8 key \(keyID)"
        case .pkcs12: "p12 certificate"
        }
    }
}
