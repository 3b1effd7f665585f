import Foundation
import HeraldCore
import Hummingbird
import HeraldStore
import Logging

/// Logs each request (method, path with device tokens redacted, status, time) and counts it;
/// unknown routes answer in the API's error format; a store that cannot be reached or cannot
/// write answers 503 `store_unavailable`.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger
    let metrics: ServerMetrics
    /// Told when a request failed because the store is unavailable (for `/health`).
    let storeUnavailable: @Sendable (String) -> Void

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var status = 500
        defer {
            metrics.recordRequest(method: request.method.rawValue, status: status)
            let elapsed = ContinuousClock.now - start
            logger.info("\(request.method) \(Self.redacted(request.uri.path)) \(status)", metadata: [
                "ms": "\(Int(elapsed.inMilliseconds))",
            ])
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
            logger.warning("\(request.method) \(Self.redacted(request.uri.path)): the store is unavailable: \(error)")
            storeUnavailable("\(error)")
            throw APIError(
                .serviceUnavailable, code: "store_unavailable",
                "the store cannot be reached or cannot write (see the server's log); try again later (GET /ready says why)"
            )
        } catch {
            logger.error("\(request.method) \(Self.redacted(request.uri.path)) failed: \(error)")
            throw APIError(.internalServerError, code: "internal", "the server could not complete the request; see its log")
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
