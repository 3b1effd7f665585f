import Testing
@testable import HeraldCore

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue(parsing: #" {"a": [1, -2.5e3, true, false, null, "x\n\"\u00e9\ud83d\ude00"], "b": {}} "#)
        #expect(value["a"] == [1, .number(JSONNumber(validatedLiteral: "-2.5e3")), true, false, nil, "x\n\"é😀"])
        #expect(value["b"] == .object([:]))
    }

    @Test func keepsKeyOrderDuplicatesAndNumberText() throws {
        let text = #"{"z":1,"a":1.0,"z":2,"n":1E+2}"#
        let value = try JSONValue(parsing: text)
        #expect(value.objectValue?.keys == ["z", "a", "z", "n"])
        #expect(value["z"] == 2)
        #expect(value.objectValue?.duplicateKeys == ["z"])
        #expect(value.jsonString == text)
    }

    @Test func serializesCompactlyWithUTF8Unescaped() throws {
        let value: JSONValue = ["t": "测试\t\u{1}"]
        #expect(value.jsonString == #"{"t":"测试\t\u0001"}"#)
        #expect(try JSONValue(parsing: value.serialized) == value)
    }

    @Test(arguments: [
        (#"{"a":1,}"#, 1, 8, "trailing comma before '}'"),
        ("[1,2,]", 1, 6, "trailing comma before ']'"),
        ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "expected ',' or '}' after the value of \"a\""),
        ("{'a': 1}", 1, 2, "expected an object key in double quotes"),
        ("['a']", 1, 2, "single quotes"),
        ("{\"a\": tru}", 1, 7, "expected a value"),
        ("01", 1, 2, "leading zeros"),
        ("1.", 1, 3, "digit after the decimal point"),
        ("\"abc", 1, 1, "never closed"),
        ("\"a\tb\"", 1, 3, "must be escaped"),
        (#""\x""#, 1, 3, "invalid escape"),
        (#""\ud800""#, 1, 2, "low surrogate"),
        ("{} {}", 1, 4, "after the end of the JSON value"),
        ("", 1, 1, "ends where a value was expected"),
        ("// c\n{}", 1, 1, "comments are not allowed"),
        ("{\"名前\": x}", 1, 8, "expected a value"),
        ("\u{FEFF}{}", 1, 1, "byte-order mark"),
    ])
    func reportsWhereAndWhy(input: String, line: Int, column: Int, message: String) {
        #expect {
            try JSONValue(parsing: input)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.line == line && error.column == column && error.message.contains(message)
        }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: [0x22, 0xFF, 0x22]) }
    }

    @Test func limitsNestingDepth() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
        let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: Never.self) { try JSONValue(parsing: fine) }
    }

    @Test func numbersKeepTheirTypeAndRange() throws {
        let value = try JSONValue(parsing: #"[1, 1.0, -0, 12345678901234567890]"#)
        let numbers = try #require(value.arrayValue).compactMap(\.numberValue)
        #expect(numbers[0].intValue == 1)
        #expect(numbers[1].intValue == nil && numbers[1].doubleValue == 1)
        #expect(numbers[2].intValue == 0)
        #expect(numbers[3].intValue == nil && numbers[3].literal == "12345678901234567890")
    }

    @Test func objectSubscriptReplacesAndRemoves() {
        var object: JSONObject = ["a": 1, "b": 2]
        object = JSONObject(object.entries + [JSONObject.Entry(key: "a", value: 3)])
        object["a"] = 9
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 9)
        object["b"] = nil
        #expect(object.keys == ["a"])
        object["c"] = "x"
        #expect(object.keys == ["a", "c"])
    }

    @Test func codableRoundTrip() throws {
        let value: JSONValue = ["a": [1, 2.5, "s", true, nil], "o": ["k": "v"]]
        let data = try JSONEncoder().encode(value)
        #expect(Self.sortingKeys(try JSONDecoder().decode(JSONValue.self, from: data)) == Self.sortingKeys(value))
    }

    /// Foundation's decoder does not promise key order; compare with keys sorted.
    static func sortingKeys(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            .object(JSONObject(object.entries.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: sortingKeys($0.value)) }))
        case .array(let elements): .array(elements.map(sortingKeys))
        default: value
        }
    }
}

import Foundation
