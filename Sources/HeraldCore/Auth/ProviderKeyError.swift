/// Why a provider key could not be used, naming what was expected.
public enum ProviderKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    case fileUnreadable(String)
    case keyIDUnknown(String)
    case binaryFile(String)
    case notPEM(found: String)
    case wrongPEMKind(String, hint: String)
    case notP256Key
    case corruptPEM
    case badIdentifier(kind: String, value: String)
    case signingFailed(String)

    public var description: String {
        switch self {
        case .fileUnreadable(let path):
            "cannot read the key file \(path); expected Apple's .p8 file (AuthKey_KEYID.p8)"
        case .keyIDUnknown(let path):
            "no key id given and \(path) is not named AuthKey_<KEYID>.p8; pass the 10-character key id shown beside the key in the developer account"
        case .binaryFile(let path):
            "\(path) is binary (DER or a .p12); expected the PEM text of Apple's .p8 file, starting with -----BEGIN PRIVATE KEY-----"
        case .notPEM(let found):
            "expected a PEM private key (-----BEGIN PRIVATE KEY----- … as in Apple's .p8 file), found \(found)"
        case .wrongPEMKind(let label, let hint):
            "expected -----BEGIN PRIVATE KEY----- (Apple's .p8 file), found -----BEGIN \(label)-----: \(hint)"
        case .notP256Key:
            "the PEM holds a private key that is not a P-256 (ES256) key; APNs provider keys from Apple's .p8 files are P-256"
        case .corruptPEM:
            "the PEM body between the -----BEGIN/END PRIVATE KEY----- lines is not valid base64; the .p8 file is corrupt or truncated, download a new key"
        case .badIdentifier(let kind, let value):
            "the \(kind) '\(value)' is not 10 characters of A–Z and 0–9, as Apple issues them"
        case .signingFailed(let detail):
            "signing the provider token failed: \(detail)"
        }
    }
}
