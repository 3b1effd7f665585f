import Foundation

/// The OpenAPI 3.1 description of the API, served at `/openapi.json`. It is the package
/// resource `openapi.json` beside this file, not Swift code: tests check that every route of
/// ``HeraldServer`` is in it and nothing else, and that its schemas have the fields the
/// server's Codable types read and write.
enum OpenAPIDocument {
    /// The document, read once from the resource; nil when this build has lost its resources
    /// (the binary was copied without its `herald_HeraldServer.resources` folder).
    static let json: String? = Bundle.module.url(forResource: "openapi", withExtension: "json").flatMap { try? String(contentsOf: $0, encoding: .utf8) }
}
