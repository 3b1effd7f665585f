import Foundation
import HeraldStore
import Hummingbird

extension HeraldServer {
    func registerDevice(_ request: Request, token: String) async throws -> Response {
        let appID = try await keys.app(request)
        let token = try DeviceInput.token(token)
        let input = try await JSONBody.decode(DeviceInput.self, from: request, limit: configuration.bodyLimit)
        let existed = try await store.device(appID: appID, token: token) != nil
        let device = try await store.upsertDevice(try input.device(appID: appID, token: token, now: configuration.clock.now))
        return try JSONBody.response(DeviceView(device), status: existed ? .ok : .created)
    }

    func showDevice(_ request: Request, token: String) async throws -> Response {
        let appID = try await keys.app(request)
        let token = try DeviceInput.token(token)
        guard let device = try await store.device(appID: appID, token: token) else { throw APIError.notFound("no device with this token in this app") }
        return try JSONBody.response(DeviceView(device))
    }

    func listDevices(_ request: Request) async throws -> Response {
        let appID = try await keys.app(request)
        guard let user = request.uri.queryParameters["user"].map(String.init), !user.isEmpty else {
            throw APIError.badRequest("give ?user=USER_ID to list a user's devices, or GET /v1/devices/{token} for one device")
        }
        return try JSONBody.response(["devices": try await store.devices(appID: appID, userID: user).map(DeviceView.init)])
    }

    func unregisterDevice(_ request: Request, token: String) async throws -> Response {
        let appID = try await keys.app(request)
        let token = try DeviceInput.token(token)
        guard try await store.deleteDevice(appID: appID, token: token) else { throw APIError.notFound("no device with this token in this app") }
        return Response(status: .noContent)
    }

    func deviceDeliveries(_ request: Request, token: String) async throws -> Response {
        let appID = try await keys.app(request)
        let token = try DeviceInput.token(token)
        let limit = try Self.limit(request, default: 20, maximum: 500)
        guard try await store.device(appID: appID, token: token) != nil else { throw APIError.notFound("no device with this token in this app") }
        return try JSONBody.response(["deliveries": try await store.deliveries(appID: appID, token: token, limit: limit).map(DeliveryView.init)])
    }

    static func limit(_ request: Request, default value: Int, maximum: Int) throws -> Int {
        guard let text = request.uri.queryParameters["limit"] else { return value }
        guard let limit = Int(String(text)), (1...maximum).contains(limit) else { throw APIError.badRequest("limit must be 1 to \(maximum)") }
        return limit
    }
}

/// One delivery in a report.
struct DeliveryView: Encodable, Sendable {
    var notificationId: String
    var token: String
    var state: String
    var status: Int?
    var reason: String?
    var apnsId: String?
    var attempts: Int
    var queuedAt: Date
    var finishedAt: Date?
    /// A queued delivery being retried: when its next attempt is (`reason` says why the last
    /// one did not go through).
    var nextAttemptAt: Date?
    /// In words: `pending`, `pending (retrying: ConnectionFailed, attempt 2, next at …)`,
    /// `sent`, `failed: Unregistered`, `expired`.
    var summary: String

    init(_ record: DeliveryRecord) {
        notificationId = record.notificationID
        token = record.token
        state = record.state.rawValue
        nextAttemptAt = record.nextAttemptAt
        switch record.state {
        case .queued:
            if let next = record.nextAttemptAt, let reason = record.reason {
                summary = "pending (retrying: \(reason), attempt \(record.attempts), next at \(next.formatted(.iso8601)))"
            } else {
                summary = "pending"
            }
        case .sent: summary = "sent"
        case .failed: summary = "failed: \(record.reason ?? "unknown")"
        case .expired: summary = "expired"
        }
        status = record.status
        reason = record.reason
        // The store keeps only an apns-id APNs changed; a sent one carries the derived id.
        apnsId = record.apnsID ?? (record.status == nil ? nil : DeliveryID.make(notificationID: record.notificationID, token: record.token).headerValue)
        attempts = record.attempts
        queuedAt = record.queuedAt
        finishedAt = record.finishedAt
    }
}
