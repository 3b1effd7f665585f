import Foundation
import HeraldCore
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

    /// `GET /v1/devices`: the app's devices in token order, a page at a time, filtered by
    /// `user`, `tag`, `kind`, `environment` and `state`.
    func listDevices(_ request: Request) async throws -> Response {
        let appID = try await keys.app(request)
        let parameters = request.uri.queryParameters
        func text(_ name: String) throws(APIError) -> String? {
            guard let value = parameters[name[...]].map(String.init) else { return nil }
            guard !value.isEmpty, value.count <= 200 else { throw .badRequest("\(name) must be 1 to 200 characters") }
            return value
        }
        var query = DeviceQuery(userID: try text("user"), tag: try text("tag"), limit: try Self.limit(request, default: 100, maximum: 1_000))
        if let kind = try text("kind") {
            query.kind = try DeviceKind(rawValue: kind).orThrow(.badRequest("kind '\(kind)' is not one of \(DeviceKind.allowedValues)"))
        }
        if let environment = try text("environment") {
            guard environment == "production" || environment == "development" else {
                throw APIError.badRequest("environment must be production or development")
            }
            query.environment = APNsEnvironment(rawValue: environment)
        }
        if let state = try text("state") {
            query.state = try DeviceState(rawValue: state).orThrow(.badRequest("state '\(state)' is not one of \(DeviceState.allowedValues)"))
        }
        try Self.allowOnly(["user", "tag", "kind", "environment", "state", "limit", "cursor"], in: request)
        query.after = try PageCursor.from(request, list: "devices", parts: 1)?[0]
        let devices = try await store.devices(appID: appID, matching: query)
        let next = devices.count == query.limit ? devices.last.map { PageCursor(list: "devices", parts: [$0.token]).encoded } : nil
        return try JSONBody.response(DevicePage(devices: devices.map(DeviceView.init), nextCursor: next))
    }

    /// `PUT /v1/devices`: registers or updates up to ``ServerConfiguration/bulkDeviceLimit``
    /// devices in one transaction. Each item is checked on its own: the answer says, in the
    /// order given, which were created, updated or refused and why; refused items change
    /// nothing and do not stop the others.
    func registerDevices(_ request: Request) async throws -> Response {
        let appID = try await keys.app(request)
        let bytes = try await JSONBody.bytes(of: request, limit: configuration.bulkBodyLimit)
        guard let body = try? JSONParser().parse(bytes) else { throw APIError.badRequest("the body is not valid JSON") }
        guard case .array(let items) = body else {
            throw APIError.badRequest("the body must be a JSON array of devices, each {\"token\": …, \"environment\": …} as in PUT /v1/devices/{token}")
        }
        guard items.count <= configuration.bulkDeviceLimit else {
            throw APIError(.contentTooLarge, code: "too_many_devices", "at most \(configuration.bulkDeviceLimit) devices per call; got \(items.count)")
        }
        let decoded = (try? JSONDecoder().decode([Lenient<BulkDeviceInput>].self, from: Data(bytes))) ?? []
        let now = configuration.clock.now
        var results: [BulkDeviceResult] = []
        var accepted: [StoredDevice] = []
        var firstIndex: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            do {
                try BulkDeviceInput.check(item)
                guard index < decoded.count else { throw APIError.badRequest("this item could not be read") }
                let input = try decoded[index].value.get()
                let token = try DeviceInput.token(input.token)
                if let first = firstIndex[token] { throw APIError.badRequest("token listed twice; item \(first) has it") }
                firstIndex[token] = index
                accepted.append(try input.device.device(appID: appID, token: token, now: now))
                results.append(BulkDeviceResult(index: index, token: token, status: "created"))
            } catch {
                let message = (error as? APIError)?.message ?? "\(error)"
                results.append(BulkDeviceResult(index: index, token: item["token"]?.stringValue, status: "refused", error: message))
            }
        }
        if !accepted.isEmpty {
            let tokens = accepted.map(\.token)
            let existing = Set(try await store.devices(appID: appID, matching: DeviceQuery(tokens: tokens, limit: tokens.count)).map(\.token))
            for index in results.indices where results[index].status == "created" && existing.contains(results[index].token ?? "") {
                results[index].status = "updated"
            }
            _ = try await store.upsertDevices(accepted)
        }
        return try JSONBody.response(BulkDeviceAnswer(results: results))
    }

    func unregisterDevice(_ request: Request, token: String) async throws -> Response {
        let appID = try await keys.app(request)
        let token = try DeviceInput.token(token)
        guard try await store.deleteDevice(appID: appID, token: token) else { throw APIError.notFound("no device with this token in this app") }
        return Response(status: .noContent)
    }

    /// `GET /v1/devices/{token}/deliveries`: newest first, a page at a time.
    func deviceDeliveries(_ request: Request, token: String) async throws -> Response {
        let appID = try await keys.app(request)
        let token = try DeviceInput.token(token)
        try Self.allowOnly(["limit", "cursor"], in: request)
        let limit = try Self.limit(request, default: 20, maximum: 500)
        let before = try PageCursor.from(request, list: "history", parts: 1).map { parts throws(APIError) in
            try Int64(parts[0]).orThrow(.badRequest("cursor is not one this server gave"))
        }
        guard try await store.device(appID: appID, token: token) != nil else { throw APIError.notFound("no device with this token in this app") }
        let deliveries = try await store.deliveries(appID: appID, token: token, before: before, limit: limit)
        let next = deliveries.count == limit ? deliveries.last.map { PageCursor(list: "history", parts: [String($0.id)]).encoded } : nil
        return try JSONBody.response(DeliveryPage(deliveries: deliveries.map(DeliveryView.init), nextCursor: next))
    }

    /// 400 for a query parameter the route does not take, naming the ones it does.
    static func allowOnly(_ names: [String], in request: Request) throws(APIError) {
        for (name, _) in request.uri.queryParameters where !names.contains(String(name)) {
            throw .badRequest("unknown parameter '\(name)'; allowed: \(names.joined(separator: ", "))")
        }
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
        case .cancelled: summary = "cancelled"
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

/// A page of devices.
struct DevicePage: Encodable, Sendable {
    var devices: [DeviceView]
    /// Give it as `cursor` for the next page; absent on the last page.
    var nextCursor: String?
}

/// A page of deliveries.
struct DeliveryPage: Encodable, Sendable {
    var deliveries: [DeliveryView]
    var nextCursor: String?
}

/// One item of `PUT /v1/devices`: a token and what `PUT /v1/devices/{token}` takes.
struct BulkDeviceInput: Decodable, Sendable, KnownFields {
    var token: String
    var device: DeviceInput

    private enum Keys: String, CodingKey { case token }

    init(from decoder: any Decoder) throws {
        token = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .token)
        device = try DeviceInput(from: decoder)
    }

    static var fields: [String: FieldShape] { DeviceInput.fields.merging(["token": .value]) { first, _ in first } }
}

/// An item of a JSON array decoded on its own: a bad item does not fail the others.
struct Lenient<Value: Decodable & Sendable>: Decodable, Sendable {
    var value: Result<Value, APIError>

    init(from decoder: any Decoder) throws {
        do {
            value = .success(try Value(from: decoder))
        } catch let error as DecodingError {
            value = .failure(.badRequest(JSONBody.message(for: error, droppingFirst: decoder.codingPath.count)))
        } catch let error as FieldError {
            value = .failure(.badRequest(error.message))
        } catch let error as APIError {
            value = .failure(error)
        } catch {
            value = .failure(.badRequest("\(error)"))
        }
    }
}

/// What became of one item of `PUT /v1/devices`.
struct BulkDeviceResult: Encodable, Sendable {
    var index: Int
    var token: String?
    /// `created`, `updated` or `refused`.
    var status: String
    var error: String?
}

/// `PUT /v1/devices`' answer: counts, then each item in the order given.
struct BulkDeviceAnswer: Encodable, Sendable {
    var created: Int
    var updated: Int
    var refused: Int
    var results: [BulkDeviceResult]

    init(results: [BulkDeviceResult]) {
        created = results.count { $0.status == "created" }
        updated = results.count { $0.status == "updated" }
        refused = results.count { $0.status == "refused" }
        self.results = results
    }
}
