import Foundation

/// The files HeraldServer ships as package resources (the OpenAPI document, the console's
/// assets), read without `Bundle.module`, whose accessor stops the process when the resource
/// folder is missing: a binary copied without it answers 404s instead.
enum ServerResources {
    /// The folder SwiftPM copies the resources into, beside the `herald` binary.
    static let folderName = "Herald_HeraldServer.resources"

    /// A resource's bytes: `bundlePath` inside the resource folder, or, for a build run from its
    /// checkout (tests, `swift run`), `sourcePath` inside `Sources/HeraldServer`.
    static func data(bundlePath: String, sourcePath: String) -> Data? {
        var folders = [Bundle.main.bundleURL.appendingPathComponent(folderName)]
        if let executable = Bundle.main.executableURL {
            folders.append(executable.deletingLastPathComponent().appendingPathComponent(folderName))
        }
        for folder in folders {
            if let data = try? Data(contentsOf: folder.appendingPathComponent(bundlePath)) { return data }
        }
        #if DEBUG
        // A debug build run from its checkout reads the sources; a release build never does
        // (its build folder may be writable by others).
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return try? Data(contentsOf: sources.appendingPathComponent(sourcePath))
        #else
        return nil
        #endif
    }
}
