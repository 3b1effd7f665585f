import Foundation

/// The OpenAPI 3.1 description of the API, served at `/openapi.json`. It is the package
/// resource `openapi.json` beside this file, not Swift code: tests check that every route of
/// ``HeraldServer`` is in it and nothing else, and that its schemas have the fields the
/// server's Codable types read and write.
enum OpenAPIDocument {
    /// The folder SwiftPM copies the resource into, beside the `herald` binary.
    static let resourceFolder = "Herald_HeraldServer.resources"

    /// The document, read once; nil when this build has lost its resources (the binary was
    /// copied without its resource folder). Read without `Bundle.module`, whose accessor stops
    /// the process when the folder is missing.
    static let json: String? = {
        var candidates = [Bundle.main.bundleURL.appendingPathComponent(resourceFolder)]
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent(resourceFolder))
        }
        for folder in candidates {
            let file = folder.appendingPathComponent("openapi.json")
            if let text = try? String(contentsOf: file, encoding: .utf8) { return text }
        }
        // A build run from its checkout (tests, `swift run`): the source file itself.
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("openapi.json")
        return try? String(contentsOf: source, encoding: .utf8)
    }()
}
