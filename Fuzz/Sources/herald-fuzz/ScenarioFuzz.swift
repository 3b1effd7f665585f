import Foundation
import HeraldDevice

/// Scenario files for `herald device`: they parse or are refused with a reason.
enum ScenarioFuzz {
    static let folder = URL(fileURLWithPath: "/nonexistent-herald-fuzz")

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? ScenarioParser(file: "fuzz.yaml", baseDirectory: folder).parse(text)
    }
}
