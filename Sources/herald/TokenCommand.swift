import ArgumentParser
import Foundation
import HeraldCore

/// `herald token`: prints a provider token (ES256 JWT) for curl and other tools, or says what
/// APNs will make of a token from any client (`--verify`).
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print an APNs provider token (ES256 JWT) signed with a .p8 key, or check one.",
        discussion: """
            Use it with curl as Apple documents: -H "authorization: bearer $(herald token --key AuthKey_ABC123DEFG.p8 --team-id DEF123GHIJ)". \
            A token is valid for one hour; APNs refuses new tokens more often than every 20 minutes.

            --verify JWT (or - to read it from standard input; "bearer …" is fine too) says what APNs \
            will think of a token made by any client, and why: its header and claims, the forms \
            popular clients send (APNSwift's iat string, PyAPNs2's fractional iat, Pushy's DER \
            signature), its age and when it may be replaced. With --key and --team-id its \
            signature is checked too. The exit status is 0 when APNs accepts it, 1 when not.
            """
    )

    @Option(help: "Apple's .p8 key file (PKCS#8 PEM).")
    var key: String?

    @Option(help: "The 10-character key id (default: from the file name AuthKey_<KEYID>.p8).")
    var keyID: String?

    @Option(help: "The 10-character team id.")
    var teamID: String?

    @Flag(help: "Print the decoded header and claims as well.")
    var verbose = false

    @Flag(help: "Mint a new token even if the one kept from an earlier run is still good.")
    var new = false

    @Option(help: "Check this token (a JWT, bearer <JWT>, or - for standard input) instead of minting one.")
    var verify: String?

    func validate() throws {
        if verify == nil, key == nil || teamID == nil { throw ValidationError("give --key and --team-id to mint a token, or --verify JWT to check one") }
        if verify != nil, key != nil, teamID == nil { throw ValidationError("--key needs --team-id to check a signature") }
        if verify != nil, new { throw ValidationError("--new mints a token; --verify checks one: choose one") }
        if verify != nil, key == nil, teamID != nil || keyID != nil { throw ValidationError("--team-id and --key-id check a signature with --key; give --key too") }
        if verify != nil, verbose { throw ValidationError("--verify prints everything it finds; --verbose is for minting") }
    }

    func run() async throws {
        if let verify { return try check(verify) }
        let providerKey = try loadKey()!
        // The token kept from an earlier run (herald send or token) is reused while it is good:
        // APNs refuses a team whose token changes within 20 minutes (TooManyProviderTokenUpdates).
        let cache = TokenCache(home: HeraldHome())
        if new, let kept = cache.kept(for: providerKey), kept.age(at: Date()) < ProviderTokenSource.minimumRefreshInterval {
            let minutes = Int(kept.age(at: Date()) / 60)
            FileHandle.standardError.write(Data((
                "herald token: warning: the last token for key \(providerKey.keyID) was minted \(minutes) min ago; APNs answers "
                    + "429 TooManyProviderTokenUpdates to a new one within 20 minutes of the last (leave out --new to reuse it)\n"
            ).utf8))
        }
        let source = new ? ProviderTokenSource(key: providerKey) : cache.source(for: providerKey)
        let token = try source.currentToken()
        cache.keep(source)
        if verbose {
            FileHandle.standardError.write(Data("kid \(token.keyID), iss \(token.teamID), iat \(Int(token.issuedAt.timeIntervalSince1970)) (valid for 60 minutes from iat)\n".utf8))
        }
        print(token.jwt)
    }

    /// The .p8 key, when one was given.
    private func loadKey() throws -> ProviderKey? {
        guard let key, let teamID else { return nil }
        do {
            return try ProviderKey(contentsOfFile: key, keyID: keyID, teamID: teamID)
        } catch {
            throw CommandError(error.description).exit(command: "token")
        }
    }

    /// `--verify`: the verdict, then a note per finding.
    private func check(_ argument: String) throws {
        let text = argument == "-" ? String(decoding: try readInput("-", command: "token"), as: UTF8.self) : argument
        var verifier = ProviderTokenVerifier()
        if let providerKey = try loadKey() {
            verifier.register(.init(keyID: providerKey.keyID, teamID: providerKey.teamID, publicKey: providerKey.publicKey))
        }
        let report = ProviderTokenReport(jwt: text, verifier: verifier, now: Date())
        switch report.verdict {
        case .success(let token):
            print("APNs accepts this token (kid \(token.keyID), team \(token.teamID))\(token.signatureChecked ? ", signature checked" : "")")
        case .failure(let rejection):
            print("APNs answers 403 \(rejection.reason): \(rejection.detail)")
        }
        for note in report.notes { print("  \(note)") }
        if !report.isAccepted { throw ExitCode(1) }
    }
}
