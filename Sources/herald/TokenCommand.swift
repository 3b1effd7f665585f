import ArgumentParser
import Foundation
import HeraldCore

/// `herald token`: prints a provider token (ES256 JWT) for curl and other tools.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print an APNs provider token (ES256 JWT) signed with a .p8 key.",
        discussion: """
            Use it with curl as Apple documents: -H "authorization: bearer $(herald token --key AuthKey_ABC123DEFG.p8 --team-id DEF123GHIJ)". \
            A token is valid for one hour; APNs refuses new tokens more often than every 20 minutes.
            """
    )

    @Option(help: "Apple's .p8 key file (PKCS#8 PEM).")
    var key: String

    @Option(help: "The 10-character key id (default: from the file name AuthKey_<KEYID>.p8).")
    var keyID: String?

    @Option(help: "The 10-character team id.")
    var teamID: String

    @Flag(help: "Print the decoded header and claims as well.")
    var verbose = false

    @Flag(help: "Mint a new token even if the one kept from an earlier run is still good.")
    var new = false

    func run() async throws {
        let providerKey: ProviderKey
        do {
            providerKey = try ProviderKey(contentsOfFile: key, keyID: keyID, teamID: teamID)
        } catch {
            throw CommandError(error.description).exit(command: "token")
        }
        // The token kept from an earlier run (herald send or token) is reused while it is good:
        // APNs refuses a team whose token changes within 20 minutes (TooManyProviderTokenUpdates).
        let cache = TokenCache(home: HeraldHome())
        let source = new ? ProviderTokenSource(key: providerKey) : cache.source(for: providerKey)
        let token = try source.currentToken()
        cache.keep(source)
        if verbose {
            FileHandle.standardError.write(Data("kid \(token.keyID), iss \(token.teamID), iat \(Int(token.issuedAt.timeIntervalSince1970)) (valid for 60 minutes from iat)\n".utf8))
        }
        print(token.jwt)
    }
}
