import Foundation

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
