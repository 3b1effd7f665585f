import Crypto
import Foundation
import HeraldCore
import Testing

@Suite struct SealedAlertTests {
    let device = Curve25519.KeyAgreement.PrivateKey()

    @Test func anAlertSealedForADeviceOpensWithItsKey() throws {
        let sealed = try SealedAlert(title: "Parcel", subtitle: "Gate 4", body: "Your code is 4821").seal(to: device.publicKey)
        #expect(!sealed.contains("4821"))
        let opened = try SealedAlert.open(sealed, with: device)
        #expect(opened == SealedAlert(title: "Parcel", subtitle: "Gate 4", body: "Your code is 4821"))
    }

    @Test func eachSealIsDifferent() throws {
        let alert = SealedAlert(body: "same")
        #expect(try alert.seal(to: device.publicKey) != alert.seal(to: device.publicKey))
    }

    @Test func anotherKeyCannotOpenIt() throws {
        let sealed = try SealedAlert(body: "secret").seal(to: device.publicKey)
        #expect(throws: SealedAlert.Failure.cannotOpen) { try SealedAlert.open(sealed, with: Curve25519.KeyAgreement.PrivateKey()) }
    }

    @Test func aChangedByteIsCaught() throws {
        var bytes = try #require(Data(base64Encoded: try SealedAlert(body: "secret").seal(to: device.publicKey)))
        for index in [1, 40, bytes.count - 1] {
            var damaged = bytes
            damaged[index] ^= 0x01
            #expect(throws: SealedAlert.Failure.self) { try SealedAlert.open(damaged.base64EncodedString(), with: device) }
        }
        bytes[0] = 2
        #expect(throws: SealedAlert.Failure.malformed("version 2; this code reads version 1")) {
            try SealedAlert.open(bytes.base64EncodedString(), with: device)
        }
        #expect(throws: SealedAlert.Failure.malformed("not base64")) { try SealedAlert.open("%%%", with: device) }
        #expect(throws: SealedAlert.Failure.malformed("3 bytes; at least 61 are needed")) { try SealedAlert.open("AAAA", with: device) }
    }

    @Test func aPublicKeyMustBeThirtyTwoBytesOfBase64() throws {
        #expect(throws: SealedAlert.Failure.invalidPublicKey) { try SealedAlert.publicKey(base64: "AAAA") }
        let key = try SealedAlert.publicKey(base64: device.publicKey.rawRepresentation.base64EncodedString())
        #expect(key.rawRepresentation == device.publicKey.rawRepresentation)
    }
}
