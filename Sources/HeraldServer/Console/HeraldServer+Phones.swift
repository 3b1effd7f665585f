import Foundation
import HeraldCore
import HeraldStore
import Hummingbird

/// `POST /v1/phones`: the environment a new phone registers in.
struct PhoneInput: Codable, Sendable, KnownFields {
    var environment: String?

    static var fields: [String: FieldShape] { ["environment": .value] }
}

/// `POST /v1/phones/{id}/tap`: what the user taps.
struct TapInput: Codable, Sendable, KnownFields {
    var notification: String
    var action: String?
    var text: String?

    static var fields: [String: FieldShape] { ["notification": .value, "action": .value, "text": .value] }
}

/// `PATCH /v1/phones/{id}`: what changes on the phone.
struct PhoneChange: Codable, Sendable, KnownFields {
    var locked: Bool?

    static var fields: [String: FieldShape] { ["locked": .value] }
}

struct PhoneList: Encodable, Sendable {
    var phones: [PhoneState]
}

extension HeraldServer {
    private func phonesOrRefuse() throws -> any SimulatedPhones {
        guard let phones = configuration.phones else {
            throw APIError.notFound("this server runs no simulated iPhones (they need the in-process sandbox: herald serve without --no-sandbox or --apns-url)")
        }
        return phones
    }

    /// Adds a simulated iPhone running the app, registered with the sandbox and, as the app
    /// would on launch, with this server.
    func addPhone(_ request: Request) async throws -> Response {
        let appID = try await keys.app(request)
        let phones = try phonesOrRefuse()
        guard let app = try await store.app(id: appID) else { throw APIError.notFound("no app '\(appID)'") }
        let input = try await JSONBody.decode(PhoneInput.self, from: request, limit: 4096)
        let environment = input.environment ?? "development"
        guard environment == "development" || environment == "production" else { throw APIError.badRequest("environment must be development or production") }
        let phone: PhoneState
        do {
            phone = try await phones.add(bundleID: app.bundleID, environment: environment)
        } catch let error as PhoneError {
            throw APIError(error.isBadRequest ? .badRequest : .conflict, code: "phone_refused", error.description)
        }
        let device = try DeviceInput(environment: environment).device(appID: appID, token: phone.token, now: configuration.clock.now)
        _ = try await store.upsertDevice(device)
        return try JSONBody.response(phone, status: .created)
    }

    func listPhones(_ request: Request) async throws -> Response {
        let appID = try await keys.app(request)
        let phones = try phonesOrRefuse()
        guard let app = try await store.app(id: appID) else { throw APIError.notFound("no app '\(appID)'") }
        return try JSONBody.response(PhoneList(phones: await phones.phones(bundleID: app.bundleID)))
    }

    func showPhone(_ request: Request, id: String) async throws -> Response {
        try JSONBody.response(try await visiblePhone(request, id: id).phone)
    }

    func tapPhone(_ request: Request, id: String) async throws -> Response {
        let (phones, _) = try await visiblePhone(request, id: id)
        let input = try await JSONBody.decode(TapInput.self, from: request, limit: 16 << 10)
        do {
            return try JSONBody.response(try await phones.tap(id: id, notification: input.notification, action: input.action, text: input.text))
        } catch let error as PhoneError {
            throw APIError(error.isBadRequest ? .badRequest : .conflict, code: "tap_refused", error.description)
        }
    }

    /// Locks or unlocks the phone, as its side button would.
    func changePhone(_ request: Request, id: String) async throws -> Response {
        let (phones, phone) = try await visiblePhone(request, id: id)
        let input = try await JSONBody.decode(PhoneChange.self, from: request, limit: 4096)
        guard let locked = input.locked else { return try JSONBody.response(phone) }
        do {
            return try JSONBody.response(try await phones.setLocked(id: id, locked: locked))
        } catch let error as PhoneError {
            throw APIError(.notFound, code: "phone_gone", error.description)
        }
    }

    func removePhone(_ request: Request, id: String) async throws -> Response {
        let (phones, _) = try await visiblePhone(request, id: id)
        _ = await phones.remove(id: id)
        return Response(status: .noContent)
    }

    /// The phone, if it runs the caller's app.
    private func visiblePhone(_ request: Request, id: String) async throws -> (any SimulatedPhones, phone: PhoneState) {
        let appID = try await keys.app(request)
        let phones = try phonesOrRefuse()
        guard let app = try await store.app(id: appID), let phone = await phones.phone(id: id), phone.bundleId == app.bundleID else {
            throw APIError.notFound("no simulated iPhone '\(id)' runs this app")
        }
        return (phones, phone)
    }
}
