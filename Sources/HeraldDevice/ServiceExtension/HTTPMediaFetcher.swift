import AsyncHTTPClient
import Foundation
import HeraldCore
import NIOCore

/// Downloads over HTTP and HTTPS (AsyncHTTPClient on the shared event loops, so a slow server
/// costs no CPU while it is waited for), with a deadline and a size bound, optionally adding
/// simulated latency so a scenario can make a download outlast the extension's 30 s.
public struct HTTPMediaFetcher: MediaFetcher {
    /// Virtual seconds added to every download.
    public var simulatedLatency: Double
    /// Real seconds before a download is abandoned.
    public var timeout: Double
    /// The largest body read: the largest attachment iOS accepts (a video).
    public static let maximumByteCount = AttachmentKind.allCases.map(\.maximumByteCount).max()!

    public init(simulatedLatency: Double = 0, timeout: Double = 30) {
        self.simulatedLatency = simulatedLatency
        self.timeout = timeout
    }

    public func fetch(_ url: URL) async throws -> FetchedMedia {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw MediaFetchError("\(url.absoluteString) is not an http or https URL")
        }
        let request = HTTPClientRequest(url: url.absoluteString)
        let deadline = NIODeadline.now() + .milliseconds(Int64(timeout * 1000))
        // A refused connection or an unknown host fails at once, as on iOS, instead of being
        // retried until the deadline.
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .milliseconds(Int64(min(timeout, 10) * 1000))
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        defer { client.shutdown { _ in } }
        do {
            let response = try await client.execute(request, deadline: deadline)
            guard (200..<300).contains(Int(response.status.code)) else {
                throw MediaFetchError("\(url.absoluteString) answered HTTP \(response.status.code)")
            }
            let body = try await response.body.collect(upTo: Self.maximumByteCount)
            return FetchedMedia(data: Data(body.readableBytesView), contentType: response.headers.first(name: "content-type"),
                                simulatedSeconds: simulatedLatency)
        } catch let error as MediaFetchError {
            throw error
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw MediaFetchError("the download of \(url.absoluteString) timed out after \(timeout.formattedSeconds) "
                + "(on iOS: NSURLErrorTimedOut, -1001, \"The request timed out.\")")
        } catch is NIOTooManyBytesError {
            throw MediaFetchError("\(url.absoluteString) is larger than \(Self.maximumByteCount) bytes, more than any attachment may be; the download was stopped")
        } catch {
            throw MediaFetchError("the download of \(url.absoluteString) failed: \(error)")
        }
    }
}
