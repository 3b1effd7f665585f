import Crypto
import Foundation
import HeraldCore
import Testing

@Suite struct TokenCommandTests {
    func keyFile(_ text: String, name: String = "AuthKey_ABC123DEFG.p8") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func printsATokenThatVerifiesAgainstThePublicHalf() throws {
        let key = P256.Signing.PrivateKey()
        let path = try keyFile(key.pemRepresentation)
        let output = try HeraldCLI.run(["token", "--key", path, "--team-id", "DEF123GHIJ"])
        #expect(output.status == 0, "\(output.stderr)")
        let jwt = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        // Checked with swift-crypto directly, independent of Herald's verifier.
        let parts = jwt.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        func base64url(_ text: String) -> Data? {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            return Data(base64Encoded: base64)
        }
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(base64url(parts[2])))
        #expect(key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
        let header = try JSONValue(parsing: Array(try #require(base64url(parts[0]))))
        #expect(header["alg"] == "ES256" && header["kid"] == "ABC123DEFG")

        let verifier = ProviderTokenVerifier(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)])
        #expect(throws: Never.self) { try verifier.verify(authorization: "bearer \(jwt)", now: Date()).get() }
    }

    @Test func badKeyFilesAreExplained() throws {
        let certificate = try keyFile("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
        let output = try HeraldCLI.run(["token", "--key", certificate, "--team-id", "DEF123GHIJ"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("herald token: expected -----BEGIN PRIVATE KEY----- (Apple's .p8 file)"))
        let unnamed = try keyFile(P256.Signing.PrivateKey().pemRepresentation, name: "key.p8")
        let noKeyID = try HeraldCLI.run(["token", "--key", unnamed, "--team-id", "DEF123GHIJ"])
        #expect(noKeyID.status == 64)
        #expect(noKeyID.stderr.contains("AuthKey_<KEYID>.p8"))
    }
}

@Suite struct TokenVerifyCommandTests {
    @Test func verifySaysWhatAPNsWillThinkOfAnyClientsToken() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = P256.Signing.PrivateKey()
        let keyPath = folder.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
        try key.pemRepresentation.write(toFile: keyPath, atomically: true, encoding: .utf8)

        // A token shaped as APNSwift makes it: typ, iat as a string, kid repeated in the claims.
        func base64url(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let iat = String(Int(Date().timeIntervalSince1970) - 120)
        let input = base64url(Data(#"{"alg":"ES256","typ":"JWT","kid":"ABC123DEFG"}"#.utf8)) + "."
            + base64url(Data(#"{"iss":"DEF123GHIJ","iat":"\#(iat)","kid":"ABC123DEFG"}"#.utf8))
        let jwt = input + "." + base64url(try key.signature(for: Data(input.utf8)).rawRepresentation)

        let checked = try HeraldCLI.run(["token", "--verify", "bearer \(jwt)", "--key", keyPath, "--team-id", "DEF123GHIJ"])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.hasPrefix("APNs accepts this token (kid ABC123DEFG, team DEF123GHIJ), signature checked"), "\(checked.stdout)")
        #expect(checked.stdout.contains("iat is a string of digits, as APNSwift sends it; APNs accepts it"), "\(checked.stdout)")
        #expect(checked.stdout.contains("2 min ago"), "\(checked.stdout)")

        let piped = try HeraldCLI.run(["token", "--verify", "-"], stdin: jwt + "\n")
        #expect(piped.status == 0 && piped.stdout.contains("not checked (give the .p8 key to check it)"), "\(piped.stdout)\(piped.stderr)")

        let otherKey = folder.appendingPathComponent("AuthKey_ZZZ123DEFG.p8").path
        try P256.Signing.PrivateKey().pemRepresentation.write(toFile: otherKey, atomically: true, encoding: .utf8)
        let wrongKey = try HeraldCLI.run(["token", "--verify", jwt, "--key", otherKey, "--team-id", "DEF123GHIJ"])
        #expect(wrongKey.status == 1 && wrongKey.stdout.hasPrefix("APNs answers 403 InvalidProviderToken: no provider key with kid ABC123DEFG"), "\(wrongKey.stdout)")
        let garbage = try HeraldCLI.run(["token", "--verify", "not-a-token"])
        #expect(garbage.status == 1 && garbage.stdout.contains("403 InvalidProviderToken"), "\(garbage.stdout)")
        let teamOnly = try HeraldCLI.run(["token", "--verify", jwt, "--team-id", "DEF123GHIJ"])
        #expect(teamOnly.status != 0 && teamOnly.stderr.contains("give --key too"), "\(teamOnly.stderr)")
        let usage = try HeraldCLI.run(["token"])
        #expect(usage.status != 0 && usage.stderr.contains("give --key and --team-id to mint a token, or --verify JWT to check one"), "\(usage.stderr)")
    }
}

@Suite struct TokenReuseCommandTests {
    @Test func aSecondRunReusesTheKeptToken() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-reuse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let keyPath = folder.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
        try P256.Signing.PrivateKey().pemRepresentation.write(toFile: keyPath, atomically: true, encoding: .utf8)
        let environment = ["HERALD_HOME": folder.appendingPathComponent("home").path]
        let first = try HeraldCLI.run(["token", "--key", keyPath, "--team-id", "DEF123GHIJ"], environment: environment)
        let second = try HeraldCLI.run(["token", "--key", keyPath, "--team-id", "DEF123GHIJ"], environment: environment)
        #expect(first.status == 0 && !first.stdout.isEmpty)
        #expect(first.stdout == second.stdout, "a token changed within 20 minutes draws TooManyProviderTokenUpdates")
        let fresh = try HeraldCLI.run(["token", "--key", keyPath, "--team-id", "DEF123GHIJ", "--new"], environment: environment)
        #expect(fresh.status == 0 && fresh.stdout != first.stdout)
        #expect(fresh.stderr.contains("warning: the last token for key ABC123DEFG was minted 0 min ago; APNs answers 429 TooManyProviderTokenUpdates"), "\(fresh.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("home/tokens.json").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}
