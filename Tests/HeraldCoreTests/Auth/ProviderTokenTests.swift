import Crypto
import Foundation
import Testing
@testable import HeraldCore

/// Builds keys and hand-made tokens for the tests.
struct TokenFixture {
    let privateKey = P256.Signing.PrivateKey()
    let key: ProviderKey
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    init(keyID: String = "ABC123DEFG", teamID: String = "DEF123GHIJ") throws {
        key = try ProviderKey(privateKey: privateKey, keyID: keyID, teamID: teamID)
    }

    var verifier: ProviderTokenVerifier {
        ProviderTokenVerifier(keys: [.init(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey)])
    }

    /// A JWT with any header and claims, signed with `signer` (default: this key).
    func jwt(header: JSONValue, claims: JSONValue, signer: P256.Signing.PrivateKey? = nil) throws -> String {
        let input = Base64URL.encode(header.serialized) + "." + Base64URL.encode(claims.serialized)
        let signature = try (signer ?? privateKey).signature(for: Data(input.utf8))
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }
}

@Suite struct ProviderTokenTests {
    @Test func signedTokenVerifiesWithSwiftCryptoDirectly() throws {
        let fixture = try TokenFixture()
        let token = try ProviderToken(signedWith: fixture.key, issuedAt: fixture.now)
        let parts = token.jwt.split(separator: ".")
        #expect(parts.count == 3)
        let header = try JSONValue(parsing: try #require(Base64URL.decode(parts[0])))
        let claims = try JSONValue(parsing: try #require(Base64URL.decode(parts[1])))
        #expect(header == ["alg": "ES256", "kid": "ABC123DEFG"])
        #expect(claims == ["iss": "DEF123GHIJ", "iat": 1_700_000_000])
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        #expect(fixture.privateKey.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
        #expect(token.authorization == "bearer \(token.jwt)")
        #expect(!token.description.contains(token.jwt))
    }

    @Test func verifierAcceptsAValidToken() throws {
        let fixture = try TokenFixture()
        let token = try ProviderToken(signedWith: fixture.key, issuedAt: fixture.now)
        let verified = try fixture.verifier.verify(authorization: token.authorization, now: fixture.now.addingTimeInterval(3599)).get()
        #expect(verified.keyID == "ABC123DEFG" && verified.teamID == "DEF123GHIJ" && verified.signatureChecked)
        #expect(verified.isFresh(at: fixture.now.addingTimeInterval(3600)))
        #expect(!verified.isFresh(at: fixture.now.addingTimeInterval(3601)))
    }

    @Test func verifierRejectsWithTheAPNsReason() throws {
        let fixture = try TokenFixture()
        let verifier = fixture.verifier
        let iat = JSONValue.number(JSONNumber(Int(fixture.now.timeIntervalSince1970)))
        let good: JSONValue = ["alg": "ES256", "kid": "ABC123DEFG"]
        let claims: JSONValue = ["iss": "DEF123GHIJ", "iat": iat]
        func reason(_ jwt: String, now: Date? = nil) -> APNsReason? {
            if case .failure(let rejection) = verifier.verify(jwt: jwt, now: now ?? fixture.now) { return rejection.reason }
            return nil
        }
        // A wrong signature: signed by another key.
        #expect(reason(try fixture.jwt(header: good, claims: claims, signer: P256.Signing.PrivateKey())) == .invalidProviderToken)
        // A wrong algorithm.
        #expect(reason(try fixture.jwt(header: ["alg": "HS256", "kid": "ABC123DEFG"], claims: claims)) == .invalidProviderToken)
        #expect(reason(try fixture.jwt(header: ["alg": "none", "kid": "ABC123DEFG"], claims: claims)) == .invalidProviderToken)
        // Older than an hour.
        let token = try ProviderToken(signedWith: fixture.key, issuedAt: fixture.now)
        #expect(reason(token.jwt, now: fixture.now.addingTimeInterval(3601)) == .expiredProviderToken)
        // A missing kid.
        #expect(reason(try fixture.jwt(header: ["alg": "ES256"], claims: claims)) == .invalidProviderToken)
        // Missing iss or iat, another team, an unknown key, a future iat, garbage.
        #expect(reason(try fixture.jwt(header: good, claims: ["iat": iat])) == .invalidProviderToken)
        #expect(reason(try fixture.jwt(header: good, claims: ["iss": "DEF123GHIJ"])) == .invalidProviderToken)
        #expect(reason(try fixture.jwt(header: good, claims: ["iss": "OTHERTEAM1", "iat": iat])) == .invalidProviderToken)
        #expect(reason(try fixture.jwt(header: ["alg": "ES256", "kid": "ZZZ123DEFG"], claims: claims)) == .invalidProviderToken)
        #expect(reason(token.jwt, now: fixture.now.addingTimeInterval(-3600)) == .invalidProviderToken)
        #expect(reason("not.a.jwt") == .invalidProviderToken)
        // Out-of-range iat values and strings that are not plain digits are refused, never trapped on.
        for iat: JSONValue in [.number(JSONNumber(Int(Int64.min))), .number(JSONNumber(Int(Int64.max))), .number(JSONNumber(validatedLiteral: "-1.5")),
                               .number(JSONNumber(validatedLiteral: "1e300")), "1700000000.5", "-1700000000", " 1700000000", "", "17e8", "99999999999999999999999"] {
            #expect(reason(try fixture.jwt(header: good, claims: ["iss": "DEF123GHIJ", "iat": iat])) == .invalidProviderToken, "\(iat)")
        }
        #expect(reason("onlyonepart") == .invalidProviderToken)
        // Header problems.
        #expect(verifier.verify(authorization: nil, now: fixture.now).failureReason == .missingProviderToken)
        #expect(verifier.verify(authorization: "token abc", now: fixture.now).failureReason == .missingProviderToken)
    }

    /// APNSwift's token shape: `typ` in the header, `iat` as a JSON string, `kid` repeated in the
    /// claims. APNs accepts it (APNSwift's users get 200s), so the sandbox must too; issue 19
    /// saw every such request answered 403 InvalidProviderToken.
    @Test func apnsSwiftsTokenShapeIsAccepted() throws {
        let fixture = try TokenFixture()
        let jwt = try fixture.jwt(header: ["alg": "ES256", "kid": "ABC123DEFG", "typ": "JWT"],
                                  claims: ["iss": "DEF123GHIJ", "iat": "1700000000", "kid": "ABC123DEFG"])
        let verified = try fixture.verifier.verify(authorization: "bearer \(jwt)", now: fixture.now.addingTimeInterval(10)).get()
        #expect(verified.issuedAt == fixture.now && verified.signatureChecked)
        // Its age still counts: an hour later the same token has expired.
        #expect(fixture.verifier.verify(jwt: jwt, now: fixture.now.addingTimeInterval(3601)).failureReason == .expiredProviderToken)
    }

    /// Other popular clients' shapes that APNs accepts: PyAPNs2 sends `time.time()` (a fraction),
    /// Pushy signs with Java's SHA256withECDSA (a DER signature, not r and s).
    @Test func otherClientsTokenShapesAreAccepted() throws {
        let fixture = try TokenFixture()
        let later = fixture.now.addingTimeInterval(10)
        let pyAPNs2 = try fixture.jwt(header: ["alg": "ES256", "kid": "ABC123DEFG", "typ": "JWT"],
                                      claims: ["iss": "DEF123GHIJ", "iat": .number(JSONNumber(validatedLiteral: "1700000000.734"))])
        #expect(try fixture.verifier.verify(jwt: pyAPNs2, now: later).get().issuedAt == fixture.now)
        let header: JSONValue = ["alg": "ES256", "typ": "JWT", "kid": "ABC123DEFG"]
        let claims: JSONValue = ["iss": "DEF123GHIJ", "iat": 1_700_000_000]
        let input = Base64URL.encode(header.serialized) + "." + Base64URL.encode(claims.serialized)
        let der = try fixture.privateKey.signature(for: Data(input.utf8)).derRepresentation
        let pushy = input + "." + Base64URL.encode(der)
        #expect(try fixture.verifier.verify(jwt: pushy, now: later).get().signatureChecked)
        #expect(try ProviderTokenVerifier().verify(jwt: pushy, now: later).get().keyID == "ABC123DEFG")
        // A DER signature by another key is still refused.
        let forged = input + "." + Base64URL.encode(try P256.Signing.PrivateKey().signature(for: Data(input.utf8)).derRepresentation)
        #expect(fixture.verifier.verify(jwt: forged, now: later).failureReason == .invalidProviderToken)
        // Milliseconds are not seconds, and the rejection says so.
        let milliseconds = try fixture.jwt(header: ["alg": "ES256", "kid": "ABC123DEFG"], claims: ["iss": "DEF123GHIJ", "iat": 1_700_000_000_000])
        guard case .failure(let rejection) = fixture.verifier.verify(jwt: milliseconds, now: later) else { Issue.record("accepted"); return }
        #expect(rejection.detail.contains("looks like milliseconds"))
    }

    @Test func aReportSaysWhatAPNsThinksAndWhy() throws {
        let fixture = try TokenFixture()
        let apnsSwift = try fixture.jwt(header: ["alg": "ES256", "kid": "ABC123DEFG", "typ": "JWT"],
                                        claims: ["iss": "DEF123GHIJ", "iat": "1700000000", "kid": "ABC123DEFG"])
        let report = ProviderTokenReport(jwt: "bearer \(apnsSwift)", verifier: fixture.verifier, now: fixture.now.addingTimeInterval(300))
        #expect(report.isAccepted)
        let text = report.notes.joined(separator: "\n")
        for expected in ["read from an authorization header value", "header: alg ES256, kid ABC123DEFG, typ JWT", "iat is a string of digits, as APNSwift sends it",
                         "claims APNs ignores: kid (APNSwift repeats the key id there)", "signature: 64 bytes", "issued at 2023-11-14T22:13:20Z, 5 min ago",
                         "APNs accepts it for 55 min more", "a new token for this key and team is allowed in 15 min"] {
            #expect(text.contains(expected), "\(expected) in \(text)")
        }
        #expect(!text.contains("not checked"))
        let open = ProviderTokenReport(jwt: apnsSwift, verifier: ProviderTokenVerifier(), now: fixture.now.addingTimeInterval(4000))
        #expect(!open.isAccepted && open.verdict.failureReason == .expiredProviderToken)
        #expect(open.notes.contains { $0.contains("not checked (give the .p8 key to check it)") })
        #expect(ProviderTokenReport(jwt: "garbage", verifier: ProviderTokenVerifier(), now: fixture.now).verdict.failureReason == .invalidProviderToken)
        // Whatever iat holds, the report never traps, and a refused iat gets no note saying APNs accepts it.
        for iat: JSONValue in [.number(JSONNumber(Int(Int64.min))), .number(JSONNumber(Int(Int64.max))), .number(JSONNumber(validatedLiteral: "-1.5")),
                               .number(JSONNumber(validatedLiteral: "1e300")), "9000000000000000000", "-1700000000", "", 1_700_000_000_000] {
            let jwt = try fixture.jwt(header: ["alg": "ES256", "kid": "ABC123DEFG"], claims: ["iss": "DEF123GHIJ", "iat": iat])
            let hostile = ProviderTokenReport(jwt: jwt, verifier: fixture.verifier, now: fixture.now)
            #expect(!hostile.isAccepted, "\(iat)")
            #expect(!hostile.notes.contains { $0.contains("APNs accepts") }, "\(iat): \(hostile.notes)")
        }
        let exponent = try fixture.jwt(header: ["alg": "ES256", "kid": "ABC123DEFG"], claims: ["iss": "DEF123GHIJ", "iat": .number(JSONNumber(validatedLiteral: "1.7e9"))])
        #expect(ProviderTokenReport(jwt: exponent, verifier: fixture.verifier, now: fixture.now).notes.contains { $0.contains("a fraction or an exponent") })
    }

    @Test func rejectionsExplainThemselves() throws {
        let fixture = try TokenFixture()
        let token = try ProviderToken(signedWith: fixture.key, issuedAt: fixture.now)
        guard case .failure(let rejection) = fixture.verifier.verify(jwt: token.jwt, now: fixture.now.addingTimeInterval(4000)) else {
            Issue.record("expected a rejection")
            return
        }
        #expect(rejection.description == "ExpiredProviderToken: the token was issued 4000 s ago; APNs accepts tokens up to 3600 s old")
    }

    @Test func withoutRegisteredKeysAnyWellFormedTokenPasses() throws {
        let fixture = try TokenFixture()
        let token = try ProviderToken(signedWith: fixture.key, issuedAt: fixture.now)
        let open = ProviderTokenVerifier()
        let verified = try open.verify(jwt: token.jwt, now: fixture.now).get()
        #expect(!verified.signatureChecked)
        #expect(open.verify(jwt: try fixture.jwt(header: ["alg": "ES384", "kid": "ABC123DEFG"], claims: ["iss": "DEF123GHIJ", "iat": 1]), now: fixture.now).failureReason == .invalidProviderToken)
        #expect(open.verify(jwt: token.jwt, now: fixture.now.addingTimeInterval(7200)).failureReason == .expiredProviderToken)
    }
}

@Suite struct ProviderKeyTests {
    func write(_ text: String, name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func readsApplesP8AndTakesTheKeyIDFromTheName() throws {
        let pem = P256.Signing.PrivateKey().pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let path = try write(pem, name: "AuthKey_ABC123DEFG.p8")
        let key = try ProviderKey(contentsOfFile: path, teamID: "DEF123GHIJ")
        #expect(key.keyID == "ABC123DEFG")
        #expect(try ProviderKey(contentsOfFile: path, keyID: "ZZZ999YYYY", teamID: "DEF123GHIJ").keyID == "ZZZ999YYYY")
    }

    @Test(arguments: [
        ("", "found an empty file"),
        ("hello", "text without a -----BEGIN"),
        ("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", "certificate authentication"),
        ("-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----", "public half"),
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----", "P-256"),
        ("-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----", "decrypt"),
        ("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----", "not a P-256"),
        ("-----BEGIN PRIVATE KEY-----\nMIG!!!\n-----END PRIVATE KEY-----", "corrupt or truncated"),
    ])
    func badKeyFilesSayWhatWasExpected(text: String, phrase: String) {
        #expect {
            try ProviderKey(pem: text, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        } throws: { error in
            "\(error)".contains(phrase) && ("\(error)".contains(".p8") || "\(error)".contains("P-256"))
        }
    }

    @Test func badIdentifiersAndFiles() throws {
        let pem = P256.Signing.PrivateKey().pemRepresentation
        #expect(throws: ProviderKeyError.badIdentifier(kind: "team id", value: "team")) {
            try ProviderKey(pem: pem, keyID: "ABC123DEFG", teamID: "team")
        }
        #expect(throws: ProviderKeyError.fileUnreadable("/no/such/AuthKey_ABC123DEFG.p8")) {
            try ProviderKey(contentsOfFile: "/no/such/AuthKey_ABC123DEFG.p8", teamID: "DEF123GHIJ")
        }
        let path = try write(pem, name: "key.p8")
        #expect(throws: ProviderKeyError.keyIDUnknown(path)) { try ProviderKey(contentsOfFile: path, teamID: "DEF123GHIJ") }
        #expect(ProviderKey.keyID(fromFileName: "/a/AuthKey_ab.p8") == nil)
    }
}

@Suite struct ProviderTokenSourceTests {
    @Test func sharesOneTokenAndRefreshesInsideApplesWindow() throws {
        let clock = ManualClock()
        let source = ProviderTokenSource(key: try TokenFixture().key, refreshInterval: 50 * 60, clock: clock)
        let first = try source.currentToken()
        clock.advance(by: 49 * 60)
        #expect(try source.currentToken() == first)
        clock.advance(by: 60)
        let second = try source.currentToken()
        #expect(second != first)
        #expect(second.issuedAt == clock.now)
        #expect(source.mintedCount == 2)
    }

    @Test func neverRefreshesSoonerThanTwentyMinutes() throws {
        let clock = ManualClock()
        let source = ProviderTokenSource(key: try TokenFixture().key, refreshInterval: 60, clock: clock)
        #expect(source.refreshInterval == 20 * 60)
        let first = try source.currentToken()
        clock.advance(by: 19 * 60)
        #expect(try source.currentToken() == first)
        #expect(ProviderTokenSource(key: try TokenFixture().key, refreshInterval: 7200, clock: clock).refreshInterval == 59 * 60)
    }

    @Test func clockMovingBackKeepsTheToken() throws {
        let clock = ManualClock()
        let source = ProviderTokenSource(key: try TokenFixture().key, clock: clock)
        let first = try source.currentToken()
        clock.advance(by: -600)
        #expect(try source.currentToken() == first)
        #expect(source.mintedCount == 1)
    }

    @Test func concurrentCallersShareOneToken() async throws {
        let clock = ManualClock()
        let source = ProviderTokenSource(key: try TokenFixture().key, clock: clock)
        let tokens = try await withThrowingTaskGroup(of: ProviderToken.self) { group in
            for _ in 0..<1000 { group.addTask { try source.currentToken() } }
            return try await group.reduce(into: Set<ProviderToken>()) { $0.insert($1) }
        }
        #expect(tokens.count == 1)
        #expect(source.mintedCount == 1)
    }

    @Test func expiredRejectionRefreshesOnceForEveryone() async throws {
        let clock = ManualClock()
        let source = ProviderTokenSource(key: try TokenFixture().key, clock: clock)
        let rejected = try source.currentToken()
        clock.advance(by: 5 * 60)
        #expect(try source.refresh(replacing: rejected) == rejected, "not within 20 minutes")
        clock.advance(by: 20 * 60)
        let replacements = try await withThrowingTaskGroup(of: ProviderToken.self) { group in
            for _ in 0..<100 { group.addTask { try source.refresh(replacing: rejected) } }
            return try await group.reduce(into: Set<ProviderToken>()) { $0.insert($1) }
        }
        #expect(replacements.count == 1)
        #expect(!replacements.contains(rejected))
        #expect(source.mintedCount == 2)
    }
}

@Suite struct ProviderTokenRegistryTests {
    @Test func oneSourcePerTeamAndKey() async throws {
        let registry = ProviderTokenRegistry(clock: ManualClock())
        let privateKey = P256.Signing.PrivateKey()
        let key = try ProviderKey(privateKey: privateKey, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let again = try ProviderKey(pem: privateKey.pemRepresentation, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let other = try ProviderKey(privateKey: privateKey, keyID: "ABC123DEFG", teamID: "OTHER12345")
        #expect(registry.source(for: key) === registry.source(for: again))
        #expect(registry.source(for: key) !== registry.source(for: other))
        let tokens = try await withThrowingTaskGroup(of: ProviderToken.self) { group in
            for index in 0..<200 { group.addTask { try registry.source(for: index.isMultiple(of: 2) ? key : again).currentToken() } }
            return try await group.reduce(into: Set<ProviderToken>()) { $0.insert($1) }
        }
        #expect(tokens.count == 1)
    }
}

extension Result {
    var failureReason: APNsReason? {
        if case .failure(let error) = self { return (error as? ProviderTokenRejection)?.reason }
        return nil
    }
}

@Suite struct ProviderTokenReuseTests {
    @Test func aKeptTokenIsTakenBackOnlyForItsKeyAndWhileFresh() throws {
        let key = try ProviderKey(privateKey: P256.Signing.PrivateKey(), keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let other = try ProviderKey(privateKey: P256.Signing.PrivateKey(), keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let token = try ProviderToken(signedWith: key, issuedAt: now)
        let taken = try #require(ProviderToken(reusing: token.jwt, signedWith: key, now: now.addingTimeInterval(600)))
        #expect(taken == token)
        #expect(ProviderToken(reusing: token.jwt, signedWith: other, now: now) == nil, "another key's signature")
        #expect(ProviderToken(reusing: token.jwt, signedWith: key, now: now.addingTimeInterval(3700)) == nil, "older than an hour")
        #expect(ProviderToken(reusing: "not.a.jwt", signedWith: key, now: now) == nil)

        let clock = ManualClock(now.addingTimeInterval(600))
        let source = ProviderTokenSource(key: key, clock: clock, reusing: taken)
        #expect(try source.currentToken() == token && source.mintedCount == 0)
        clock.advance(by: 50 * 60)
        #expect(try source.currentToken() != token && source.mintedCount == 1, "refreshed once it is due")
    }
}
