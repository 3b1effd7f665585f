import Foundation
import HeraldCore
import Hummingbird
import HeraldStore
import Logging
import HTTPTypes
import NIOCore

/// Logs each request (method, path with device tokens redacted, status, time) and counts it;
/// unknown routes answer in the API's error format; a store that cannot be reached or cannot
/// write answers 503 `store_unavailable`.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger
    let metrics: ServerMetrics
    /// Told when a request failed because the store is unavailable (for `/health`).
    let storeUnavailable: @Sendable (String) -> Void

    static var requestIDField: HTTPField.Name { HTTPField.Name("X-Request-Id")! }

    /// Each request gets an id (the caller's `X-Request-Id`, or a new one), answered in the
    /// same header and logged with the method, the path (tokens shortened), the status, the
    /// time taken, the client's address and the app; never a key or a whole token.
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let trace = RequestTrace(id: RequestTrace.id(given: request.headers[Self.requestIDField]))
        do {
            var response = try await RequestTrace.$current.withValue(trace) { try await answer(request, context: context, trace: trace, next: next) }
            response.headers[Self.requestIDField] = trace.id
            return response
        } catch var error as APIError {
            error.requestID = trace.id
            throw error
        }
    }

    private func answer(
        _ request: Request, context: Context, trace: RequestTrace, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        var status = 500
        defer {
            metrics.recordRequest(method: request.method.rawValue, status: status)
            let elapsed = ContinuousClock.now - start
            var metadata: Logger.Metadata = ["request_id": "\(trace.id)", "ms": "\(Int(elapsed.inMilliseconds))"]
            if let app = trace.appID { metadata["app"] = "\(app)" }
            if let address = (context as? any RemoteAddressRequestContext)?.remoteAddress { metadata["client"] = "\(Self.describe(address))" }
            logger.info("\(request.method) \(Self.redacted(request.uri.path)) \(status)", metadata: metadata)
        }
        do {
            let response = try await next(request, context)
            status = response.status.code
            return response
        } catch let error as APIError {
            status = error.status.code
            throw error
        } catch let error as HTTPError where error.status == .notFound {
            status = 404
            throw APIError.notFound("no route \(request.method) \(request.uri.path); see /openapi.json")
        } catch let error as HTTPResponseError {
            status = error.status.code
            throw APIError(error.status, code: "http_\(error.status.code)", "\(error)")
        } catch where StoreError.isUnavailable(error) {
            status = 503
            logger.warning("\(request.method) \(Self.redacted(request.uri.path)): the store is unavailable: \(error)", metadata: ["request_id": "\(trace.id)"])
            storeUnavailable("\(error)")
            throw APIError(
                .serviceUnavailable, code: "store_unavailable",
                "the store cannot be reached or cannot write (see the server's log); try again later (GET /ready says why)"
            )
        } catch {
            logger.error("\(request.method) \(Self.redacted(request.uri.path)) failed: \(StoreError.describe(error))", metadata: ["request_id": "\(trace.id)"])
            throw APIError(.internalServerError, code: "internal", "the server could not complete the request; see its log")
        }
    }

    /// An address as `ip:port` (`[ip]:port` for IPv6), or the socket path.
    static func describe(_ address: SocketAddress) -> String {
        switch address {
        case .v4: "\(address.ipAddress ?? "?"):\(address.port ?? 0)"
        case .v6: "[\(address.ipAddress ?? "?")]:\(address.port ?? 0)"
        case .unixDomainSocket: address.pathname ?? "unix"
        }
    }

    /// The path with anything that looks like a device token shortened (`/v1/devices/a1b2…c3d4`).
    static func redacted(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            if part.count >= 32, let token = try? DeviceToken(parsing: String(part)) { return token.redacted }
            return String(part)
        }.joined(separator: "/")
    }
}
