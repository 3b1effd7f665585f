import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The console's page, script and style sheet: package resources served as they are (no build
/// step, nothing from a CDN), under a content security policy that lets the page load only
/// from this server.
enum ConsoleAssets {
    /// The files the console is made of, with their media types. Nothing else is served.
    static let files: [String: String] = [
        "index.html": "text/html; charset=utf-8",
        "console.js": "text/javascript; charset=utf-8",
        "console.css": "text/css; charset=utf-8",
        "icon.svg": "image/svg+xml",
        "sample.png": "image/png",
    ]

    /// Each file's bytes, read once.
    static let contents: [String: ByteBuffer] = {
        var found: [String: ByteBuffer] = [:]
        for name in files.keys {
            if let data = ServerResources.data(bundlePath: "Assets/\(name)", sourcePath: "Console/Assets/\(name)") {
                found[name] = ByteBuffer(bytes: data)
            }
        }
        return found
    }()

    static let securityPolicy =
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

    /// The file `name` as an answer; 404 for anything else.
    static func response(_ name: String) throws -> Response {
        guard let type = files[name] else { throw APIError.notFound("the console has no file '\(name)'") }
        guard let body = contents[name] else {
            throw APIError(
                .serviceUnavailable, code: "console_missing",
                "this build has no console assets: the \(ServerResources.folderName) folder must stay beside the herald binary"
            )
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: type, .cacheControl: "no-cache", .contentSecurityPolicy: securityPolicy,
                HTTPField.Name("X-Content-Type-Options")!: "nosniff", HTTPField.Name("Referrer-Policy")!: "no-referrer",
                HTTPField.Name("X-Frame-Options")!: "DENY",
            ],
            body: ResponseBody(byteBuffer: body)
        )
    }
}
