import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Bytes a service extension downloaded.
public struct FetchedMedia: Sendable {
    public var data: Data
    /// The response's Content-Type, if any.
    public var contentType: String?
    /// Virtual seconds the download counts for (at least its real duration).
    public var simulatedSeconds: Double

    public init(data: Data, contentType: String?, simulatedSeconds: Double = 0) {
        self.data = data
        self.contentType = contentType
        self.simulatedSeconds = simulatedSeconds
    }
}

/// Why a download failed.
public struct MediaFetchError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// How service extensions download media; tests and scenarios swap in a slower network.
public protocol MediaFetcher: Sendable {
    func fetch(_ url: URL) async throws -> FetchedMedia
}

/// Downloads over HTTP(S) with URLSession, optionally adding simulated latency so a scenario can
/// make a download outlast the extension's 30 s.
public struct URLSessionMediaFetcher: MediaFetcher {
    /// Virtual seconds added to every download.
    public var simulatedLatency: Double
    /// Real seconds before a download is abandoned.
    public var timeout: Double

    public init(simulatedLatency: Double = 0, timeout: Double = 30) {
        self.simulatedLatency = simulatedLatency
        self.timeout = timeout
    }

    public func fetch(_ url: URL) async throws -> FetchedMedia {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw MediaFetchError("\(url.absoluteString) gave no HTTP response") }
        guard (200..<300).contains(http.statusCode) else {
            throw MediaFetchError("\(url.absoluteString) answered HTTP \(http.statusCode)")
        }
        return FetchedMedia(data: data, contentType: http.value(forHTTPHeaderField: "Content-Type"), simulatedSeconds: simulatedLatency)
    }
}
