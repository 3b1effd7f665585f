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

    func run() async throws {
        let providerKey: ProviderKey
        do {
            providerKey = try ProviderKey(contentsOfFile: key, keyID: keyID, teamID: teamID)
        } catch {
            throw CommandError(error.description).exit(command: "token")
        }
        let token = try ProviderToken(signedWith: providerKey, issuedAt: Date())
        if verbose {
            FileHandle.standardError.write(Data("kid \(token.keyID), iss \(token.teamID), iat \(Int(token.issuedAt.timeIntervalSince1970)) (valid for 60 minutes)\n".utf8))
        }
        print(token.jwt)
    }
}
