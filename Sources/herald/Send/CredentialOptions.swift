import ArgumentParser
import Foundation
import HeraldAPNs
import HeraldCore

/// How a command proves to APNs who it is: a `.p8` key (token authentication) or a client
/// certificate. `herald send` and `herald bench client` share these options and their checks.
struct CredentialOptions: ParsableArguments {
    @Option(help: "Provider key (.p8) for token authentication [env: HERALD_KEY].")
    var key: String?

    @Option(help: "Key id of --key (default: from the file name AuthKey_KEYID.p8) [env: HERALD_KEY_ID].")
    var keyID: String?

    @Option(help: "Team id of --key [env: HERALD_TEAM_ID].")
    var teamID: String?

    @Option(help: "Client certificate for certificate authentication: a .p12 file, or a PEM certificate with --cert-key.")
    var cert: String?

    @Option(help: "Private key (PEM) of a PEM --cert.")
    var certKey: String?

    @Option(help: "Password of a .p12 --cert [env: HERALD_CERT_PASSWORD].")
    var certPassword: String?

    func validate() throws {
        if cert != nil && key != nil { throw ValidationError("choose token (--key) or certificate (--cert) authentication, not both") }
        if let cert, !Self.isPKCS12(cert), certKey == nil { throw ValidationError("a PEM --cert needs --cert-key (or give a .p12 file)") }
        if certKey != nil, cert == nil { throw ValidationError("--cert-key goes with --cert") }
    }

    /// True when a certificate, not a key, authenticates.
    var usesCertificate: Bool { cert != nil }

    /// Fills what the command line left out from a saved profile.
    mutating func fill(from saved: Profile) {
        guard key == nil && cert == nil else { return }
        key = saved.key
        keyID = keyID ?? saved.keyID
        teamID = teamID ?? saved.teamID
        cert = saved.cert
        certKey = saved.certKey
        certPassword = certPassword ?? saved.certPassword
    }

    /// The authentication these options describe, with the environment's `HERALD_*` values for
    /// what was not given; `nil` when neither a key nor a certificate was given anywhere.
    /// A token comes from the token kept by earlier runs while it is good (APNs refuses a
    /// team whose token changes within 20 minutes).
    func authentication(environment: [String: String], command: String) throws -> APNsClientConfiguration.Authentication? {
        if let cert, Self.isPKCS12(cert) { return .pkcs12(path: cert, password: certPassword ?? environment["HERALD_CERT_PASSWORD"]) }
        if let cert, let certKey { return .certificate(certificatePath: cert, privateKeyPath: certKey) }
        guard let keyPath = key ?? environment["HERALD_KEY"] else { return nil }
        guard let team = teamID ?? environment["HERALD_TEAM_ID"] else {
            throw CommandError("--key needs --team-id (or HERALD_TEAM_ID)").exit(command: command)
        }
        do {
            let providerKey = try ProviderKey(contentsOfFile: keyPath, keyID: keyID ?? environment["HERALD_KEY_ID"], teamID: team)
            return .token(TokenCache(home: HeraldHome()).source(for: providerKey))
        } catch {
            throw CommandError(error.description).exit(command: command)
        }
    }

    /// `.p12` and `.pfx` files hold a certificate and its key together.
    static func isPKCS12(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".p12") || lowered.hasSuffix(".pfx")
    }
}
