import Foundation
import Testing
@testable import HeraldCore

/// A small deterministic random generator (SplitMix64), so every run checks the same cases and a
/// failure can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random and truncated inputs to every parser: nothing may crash, and what parses must survive a
/// round trip.
@Suite struct FuzzTests {
    static let alphabet = Array(#"{}[]:,"\ -.0123456789eEtruefalsnl"aps alert badge ütf8 测 \u00e9 \ud83d"#.utf8)

    static func randomBytes(_ rng: inout SplitMix64, structured: Bool) -> [UInt8] {
        let count = Int.random(in: 0...300, using: &rng)
        return (0..<count).map { _ in
            structured ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
        }
    }

    static func exercise(_ bytes: [UInt8], verifier: ProviderTokenVerifier, now: Date) {
        _ = try? JSONParser().parse(bytes)
        _ = try? Payload(decoding: bytes)
        _ = PayloadLinter().lint(payload: bytes, headers: [("apns-push-type", String(decoding: bytes.prefix(12), as: UTF8.self))])
        _ = PayloadLinter().lint(payload: bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? DeviceToken(parsing: text)
        _ = verifier.verify(jwt: text, now: now)
        _ = verifier.verify(authorization: "bearer " + text, now: now)
        _ = APNsErrorBody(bytes: bytes)
        _ = try? ProviderKey(pem: text, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
    }

    @Test func randomBytesNeverCrash() throws {
        var rng = SplitMix64(state: 2197)
        let fixture = try TokenFixture()
        for round in 0..<6000 {
            Self.exercise(Self.randomBytes(&rng, structured: round.isMultiple(of: 2)), verifier: fixture.verifier, now: fixture.now)
        }
    }

    @Test func everyTruncationIsReportedAsInvalidJSON() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Examples.folder.path).filter { $0.hasSuffix(".json") }
        var inputs = try files.map { try Examples.bytes($0) }
        inputs.append(Payload.alert(title: "标题 😀", subtitle: "s", body: "b\n\"q\"").badge(3).sound(.critical(CriticalSound()))
            .custom("deep", [[["a": [1.5e-3, nil, true]]]]).serialized)
        var cases = 0
        for input in inputs {
            let end = input.lastIndex { $0 != 0x0A && $0 != 0x20 }!
            for length in 0...end {
                let prefix = Array(input[..<length])
                let codes = PayloadLinter().lint(payload: prefix).map(\.code)
                #expect(codes.contains(.invalidJSON) || codes.contains(.payloadEmpty), "prefix of \(length) bytes")
                cases += 1
            }
        }
        #expect(cases > 1000)
    }

    @Test func mutatedPayloadsNeverCrashAndRoundTrip() throws {
        var rng = SplitMix64(state: 443)
        let seeds = try ["seed-000-localized.json", "seed-002-image.json", "seed-003-communication.json"].map(Examples.bytes)
        let fixture = try TokenFixture()
        for _ in 0..<4000 {
            var bytes = seeds.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let position = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[position] = Self.alphabet.randomElement(using: &rng)!
                case 1: bytes.insert(Self.alphabet.randomElement(using: &rng)!, at: position)
                default: if bytes.count > 1 { bytes.remove(at: position) }
                }
            }
            Self.exercise(bytes, verifier: fixture.verifier, now: fixture.now)
            if let value = try? JSONParser().parse(bytes) {
                #expect(try JSONParser().parse(value.serialized) == value)
            }
        }
    }

    static func randomString(_ rng: inout SplitMix64) -> String {
        let pool: [Character] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "é", "测", "😀", "-", "."]
        return String((0..<Int.random(in: 0...8, using: &rng)).map { _ in pool.randomElement(using: &rng)! })
    }

    static func randomValue(_ rng: inout SplitMix64, depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth > 4 ? 4 : 7), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return Bool.random(using: &rng) ? .number(JSONNumber(Int.random(in: -1_000_000...1_000_000, using: &rng)))
            : .number(JSONNumber(Double.random(in: -1e6...1e6, using: &rng)))
        case 3: return .string(randomString(&rng))
        case 4, 5:
            return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            return .object(JSONObject((0..<Int.random(in: 0...4, using: &rng)).map { _ in
                JSONObject.Entry(key: randomString(&rng), value: randomValue(&rng, depth: depth + 1))
            }))
        }
    }

    @Test func generatedDocumentsRoundTrip() throws {
        var rng = SplitMix64(state: 5120)
        for _ in 0..<3000 {
            let value = Self.randomValue(&rng, depth: 0)
            #expect(try JSONParser().parse(value.serialized) == value)
            if case .object(let object) = value {
                let payload = Payload(json: object)
                #expect(try Payload(decoding: payload.serialized) == payload)
                _ = PayloadLinter().lint(payload: payload.serialized)
            }
        }
    }

    @Test func mutatedTokensAreRefused() throws {
        var rng = SplitMix64(state: 60)
        let fixture = try TokenFixture()
        let verifier = fixture.verifier
        let jwt = Array(try ProviderToken(signedWith: fixture.key, issuedAt: fixture.now).jwt.utf8)
        let base64url = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.".utf8)
        var accepted = 0
        for _ in 0..<3000 {
            var bytes = jwt
            let position = Int.random(in: 0..<bytes.count, using: &rng)
            bytes[position] = base64url.randomElement(using: &rng)!
            if Bool.random(using: &rng) { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng))) }
            if bytes == jwt { continue }
            if case .success = verifier.verify(jwt: String(decoding: bytes, as: UTF8.self), now: fixture.now) {
                // Only a change in the unused low bits of a base64url segment's last character
                // leaves the decoded token the same; anything else must be refused.
                accepted += 1
            }
        }
        #expect(accepted < 30)
    }
}
