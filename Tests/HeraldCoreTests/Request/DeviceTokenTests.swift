import Testing
@testable import HeraldCore

@Suite struct DeviceTokenTests {
    static let hex32 = "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad"

    @Test(arguments: [
        hex32,
        hex32.uppercased(),
        "  \(hex32)\n",
        "<740f4707 bebcf74f 9b7c25d4 8e335894 5f6aa01d a5ddb387 462c7eaf 61bb78ad>",
        "0x\(hex32)",
        "740f4707 bebcf74f 9b7c25d4 8e335894\n5f6aa01d a5ddb387 462c7eaf 61bb78ad",
    ])
    func acceptsWhatPeoplePaste(_ text: String) throws {
        #expect(try DeviceToken(parsing: text).hex == Self.hex32)
    }

    @Test(arguments: [2, 16, 64, 100, 160, 512])
    func acceptsAnyEvenLength(_ digits: Int) throws {
        let text = String(repeating: "ab", count: digits / 2)
        let token = try DeviceToken(parsing: text)
        #expect(token.bytes.count == digits / 2)
        #expect(try DeviceToken(bytes: token.bytes) == token)
    }

    @Test(arguments: [
        ("", DeviceTokenError.empty, "empty"),
        ("<  >", .empty, "empty"),
        ("6F9619FF-8B86-D011-B42D-00C04FC964FF", .simulatorUDID, "looks like a simulator UDID, not a device token"),
        ("{length = 32, bytes = 0x740f4707 bebcf74f ... 61bb78ad }", .dataDescription, "iOS 13"),
        ("dGhpcyBpcyBub3QgYSB0b2tlbiBhdCBhbGw=", .base64, "base64"),
        ("740f4707bebcf74g", .invalidCharacter("g", position: 15), "position 16"),
        ("<740f 47g7>", .invalidCharacter("g", position: 8), "position 9"),
        ("0x", .empty, "empty"),
        ("<0x>", .empty, "empty"),
        ("740f4", .oddLength(5), "odd number"),
        (String(repeating: "a", count: 514), .tooLong(bytes: 257), "257 bytes"),
        ("fcm123:APA91bH" + String(repeating: "x", count: 140), .firebaseToken, "Firebase"),
    ])
    func rejectsWithAReason(text: String, error: DeviceTokenError, phrase: String) {
        #expect(throws: error) { try DeviceToken(parsing: text) }
        #expect(error.description.contains(phrase))
    }

    @Test func redactsForLogsAndCodes() throws {
        let token = try DeviceToken(parsing: Self.hex32)
        #expect(token.redacted == "740f47…bb78ad")
        let data = try JSONEncoder().encode([token])
        #expect(String(decoding: data, as: UTF8.self) == "[\"\(Self.hex32)\"]")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([DeviceToken].self, from: Data(#"["xyz"]"#.utf8)) }
    }
}

import Foundation
