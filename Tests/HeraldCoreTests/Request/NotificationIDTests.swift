import Foundation
import HeraldCore
import Testing

@Suite struct NotificationIDTests {
    @Test func generatedIDsAreVersion4LowercaseAndUnique() throws {
        var generator = FastRandomGenerator()
        var seen = Set<String>()
        for _ in 0..<10_000 {
            let text = NotificationID(using: &generator).headerValue
            #expect(text.count == 36)
            #expect(text == text.lowercased())
            let characters = Array(text)
            #expect(characters[8] == "-" && characters[13] == "-" && characters[18] == "-" && characters[23] == "-")
            #expect(characters[14] == "4", "version nibble in \(text)")
            #expect("89ab".contains(characters[19]), "variant nibble in \(text)")
            #expect(try NotificationID(text).headerValue == text)
            seen.insert(text)
        }
        #expect(seen.count == 10_000)
    }

    @Test func headerValueMatchesFoundationsFormat() throws {
        for _ in 0..<100 {
            let uuid = UUID()
            #expect(NotificationID(uuid).headerValue == uuid.uuidString.lowercased())
        }
    }

    @Test func aSeedGivesOneSequence() {
        var first = FastRandomGenerator(seed: 42)
        var second = FastRandomGenerator(seed: 42)
        var other = FastRandomGenerator(seed: 43)
        let a = (0..<8).map { _ in first.next() }
        #expect(a == (0..<8).map { _ in second.next() })
        #expect(a != (0..<8).map { _ in other.next() })
        #expect(Set(a).count == 8)
    }

    @Test func duplicateKeysInSmallAndLargeObjects() throws {
        let small = try JSONValue(parsing: Array(#"{"a":1,"b":2,"a":3}"#.utf8))
        #expect(small.objectValue?.hasDuplicateKeys == true && small.objectValue?.duplicateKeys == ["a"])
        let keys = (0..<40).map { "\"k\($0)\":\($0)" }
        let large = try JSONValue(parsing: Array("{\(keys.joined(separator: ",")),\"k7\":0,\"k39\":1}".utf8))
        #expect(large.objectValue?.hasDuplicateKeys == true && large.objectValue?.duplicateKeys == ["k7", "k39"])
        let unique = try JSONValue(parsing: Array("{\(keys.joined(separator: ","))}".utf8))
        #expect(unique.objectValue?.hasDuplicateKeys == false && unique.objectValue?.duplicateKeys == [])
    }

    @Test func anySuffixIsStrippedLongestFirst() {
        #expect(PushType.bundleID(strippingAnySuffixFrom: "com.example.app.push-type.liveactivity") == "com.example.app")
        #expect(PushType.bundleID(strippingAnySuffixFrom: "com.example.app.voip-ptt") == "com.example.app")
        #expect(PushType.bundleID(strippingAnySuffixFrom: "com.example.app.voip") == "com.example.app")
        #expect(PushType.bundleID(strippingAnySuffixFrom: "com.example.app") == "com.example.app")
        #expect(PushType.bundleID(strippingAnySuffixFrom: ".voip") == ".voip")
    }
}
