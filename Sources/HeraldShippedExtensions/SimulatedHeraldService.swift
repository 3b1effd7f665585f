import Crypto
import Foundation
import HeraldDevice
import HeraldKit
import HeraldUserNotifications

/// HeraldKit's service extension as the simulator runs it: downloads go through the device's
/// network (with its simulated latency, counted against the 30 s), what it logs goes to the
/// transcript, and the key is the one the scenario gives.
final class SimulatedHeraldService: HeraldNotificationService, @unchecked Sendable {
    private let context: ServiceExtensionContext
    private let paths: [String]
    private let identifier: String
    private let key: Data?

    init(context: ServiceExtensionContext, mediaKeyPaths: [String] = ServiceExtensionRecipe.defaultMediaKeyPaths,
         attachmentIdentifier: String = "media", privateKey: Data? = nil) {
        self.context = context
        self.paths = mediaKeyPaths
        self.identifier = attachmentIdentifier
        self.key = privateKey
        super.init()
    }

    override var mediaKeyPaths: [String] { paths }

    override var attachmentIdentifier: String { identifier }

    override var keyStore: (any HeraldKeyStore)? {
        key.flatMap { try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: $0) }.map(HeraldFixedKeyStore.init)
    }

    override func log(_ message: String) {
        context.log(message)
    }

    /// Saves into the extension's own folder, as iOS gives each extension run its own.
    override func download(_ url: URL) async -> (Data, URLResponse)? {
        do {
            let media = try await context.download(url)
            var fields: [String: String] = [:]
            if let type = media.contentType { fields["Content-Type"] = type }
            guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields) else { return nil }
            return (media.data, response)
        } catch {
            log("downloading \(url.absoluteString) failed: \(error)")
            return nil
        }
    }
}
