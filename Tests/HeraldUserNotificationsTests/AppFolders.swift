import Foundation
import HeraldCore
import HeraldDevice
import Testing

/// The app folders the tests install (Scenarios/apps).
enum AppFolders {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func load(_ name: String) throws -> AppBundle {
        try AppBundle.load(from: root.appendingPathComponent("Scenarios/apps/\(name)"))
    }

    static func file(_ app: String, _ name: String) -> URL {
        root.appendingPathComponent("Scenarios/apps/\(app)/\(name)")
    }
}

extension SimulatedDevice {
    /// The events of one kind, in order.
    func events(_ kind: DeviceEvent.Kind) -> [DeviceEvent] {
        transcript.filter { $0.kind == kind }
    }
}

/// Every test that runs app code: serialized, because app code that leaves its task (a
/// `DispatchQueue.main.async` block, a URLSession callback) reaches the app launched last.
@Suite(.serialized) enum AppCodeTests {}
