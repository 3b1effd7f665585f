import Foundation

/// The OpenAPI 3.1 description of the API, served at `/openapi.json`. It is the package
/// resource `openapi.json` beside this file, not Swift code: tests check that every route of
/// ``HeraldServer`` is in it and nothing else, and that its schemas have the fields the
/// server's Codable types read and write.
enum OpenAPIDocument {
    /// The document, read once; nil when this build has lost its resources (the binary was
    /// copied without its resource folder).
    static let json: String? = ServerResources.data(bundlePath: "openapi.json", sourcePath: "OpenAPI/openapi.json")
        .map { String(decoding: $0, as: UTF8.self) }
}
