import Foundation
import HeraldCore

/// The admin API: JSON over HTTP/1.1, on its own port so it never collides with APNs paths.
///
/// | method | path | does |
/// |---|---|---|
/// | GET | /health | `{"ok": true}` |
/// | GET | /devices | every registered device |
/// | POST | /devices | register `{"topic", "token"?, "environment"?, "online"?}` (a token is made when absent) |
/// | GET | /devices/{token} | the device and its stored notification |
/// | DELETE | /devices/{token}[?expired=true] | unregister: pushes then get 410 with this time |
/// | POST | /devices/{token}/online, /devices/{token}/offline | go online (stored notification delivered) or offline |
/// | GET | /devices/{token}/notifications | what the device received |
/// | GET | /notifications | what every device received, oldest first |
/// | GET | /devices/{token}/events | server-sent events, one per notification received |
/// | POST | /keys | register a provider key `{"keyID", "teamID", "pem", "environment"?}` |
/// | DELETE | /keys/{keyID} | revoke a key (403 Forbidden from then on) |
/// | GET, PUT, DELETE | /faults | show, set or clear injected faults |
/// | PUT | /settings | `{"autoAccept": bool}` |
/// | GET | /counters | answers by status and reason, deliveries |
/// | POST | /reset | forget devices, deliveries, counters and faults |
struct AdminRouter: Sendable {
    let state: SandboxState

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    struct RegisterDevice: Decodable {
        var topic: String
        var token: String?
        var environment: String?
        var online: Bool?
    }

    struct RegisterKey: Decodable {
        var keyID: String
        var teamID: String
        var pem: String
        var environment: String?
    }

    struct Settings: Decodable {
        var autoAccept: Bool?
    }

    struct DeviceDetail: Encodable {
        var device: SandboxDevice
        var stored: SandboxNotification?
    }

    func route(method: String, uri: String, body: [UInt8]) -> AdminResponse {
        let pathAndQuery = uri.split(separator: "?", maxSplits: 1).map(String.init)
        let parts = pathAndQuery[0].split(separator: "/").map(String.init)
        let query = pathAndQuery.count > 1 ? pathAndQuery[1] : ""
        do {
            switch (method, parts.first ?? "", parts.count) {
            case ("GET", "health", 1):
                return .json(200, ["ok": true])
            case ("GET", "devices", 1):
                return .json(200, state.devices)
            case ("POST", "devices", 1):
                let request: RegisterDevice = try decode(body)
                let token = try request.token.map(parseToken)
                let environment = try request.environment.map(parseEnvironment)
                return .json(201, try state.register(token: token, topic: request.topic, environment: environment, online: request.online ?? true))
            case ("GET", "devices", 2):
                guard let device = state.device(token: parts[1].lowercased()) else { throw SandboxError.notFound("no device with token \(parts[1])") }
                return .json(200, DeviceDetail(device: device, stored: state.stored(token: device.token)))
            case ("DELETE", "devices", 2):
                return .json(200, try state.unregister(token: parts[1].lowercased(), expired: query.contains("expired=true")))
            case ("POST", "devices", 3) where parts[2] == "online" || parts[2] == "offline":
                return .json(200, try state.setOnline(token: parts[1].lowercased(), parts[2] == "online"))
            case ("GET", "devices", 3) where parts[2] == "notifications":
                let token = parts[1].lowercased()
                guard state.device(token: token) != nil else { throw SandboxError.notFound("no device with token \(parts[1])") }
                return .json(200, state.received(token: token))
            case ("GET", "notifications", 1):
                return .json(200, state.allReceived)
            case ("POST", "keys", 1):
                let request: RegisterKey = try decode(body)
                return .json(201, try registerKey(request))
            case ("DELETE", "keys", 2):
                state.revoke(keyID: parts[1])
                return .json(200, ["revoked": parts[1]])
            case ("GET", "faults", 1):
                return .json(200, state.faults)
            case ("PUT", "faults", 1):
                let plan: FaultPlan = try decode(body)
                try state.setFaults(plan)
                return .json(200, plan)
            case ("DELETE", "faults", 1):
                try state.setFaults(FaultPlan())
                return .json(200, FaultPlan())
            case ("PUT", "settings", 1):
                let settings: Settings = try decode(body)
                if let autoAccept = settings.autoAccept { state.setAutoAccept(autoAccept) }
                return .json(200, ["autoAccept": state.autoAccept])
            case ("GET", "counters", 1):
                return .json(200, state.counters)
            case ("POST", "reset", 1):
                state.reset()
                return .json(200, ["reset": true])
            default:
                return .error(404, "not_found", "no admin route \(method) \(pathAndQuery[0]); see the table in AdminRouter or the README")
            }
        } catch let error as SandboxError {
            switch error {
            case .notFound(let message): return .error(404, "not_found", message)
            case .invalid(let message): return .error(400, "invalid", message)
            }
        } catch {
            return .error(400, "invalid", "\(error)")
        }
    }

    private func decode<T: Decodable>(_ body: [UInt8]) throws -> T {
        guard !body.isEmpty else { throw SandboxError.invalid("the request needs a JSON body") }
        // HeraldCore's parser first: it says where the JSON breaks and what JSON allows there.
        do {
            _ = try JSONParser().parse(body)
        } catch {
            throw SandboxError.invalid("the body is not valid JSON: \(error.message) at line \(error.line), column \(error.column)")
        }
        let path = { (codingPath: [any CodingKey]) in
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch let DecodingError.keyNotFound(key, _) {
            throw SandboxError.invalid("the JSON body lacks \"\(key.stringValue)\"")
        } catch let DecodingError.dataCorrupted(context) {
            let at = path(context.codingPath)
            throw SandboxError.invalid((at.isEmpty ? "" : "at \(at): ") + context.debugDescription)
        } catch let DecodingError.typeMismatch(type, context) {
            throw SandboxError.invalid("wrong type at \(path(context.codingPath)): expected \(Self.jsonName(of: type))")
        } catch let DecodingError.valueNotFound(type, context) {
            throw SandboxError.invalid("null at \(path(context.codingPath)): expected \(Self.jsonName(of: type))")
        } catch {
            throw SandboxError.invalid("the body is not the expected JSON: \(error)")
        }
    }

    /// A Swift type as JSON calls it, for error messages.
    private static func jsonName(of type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type: "a whole number"
        case is Double.Type: "a number"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is FaultAnswer.Type: FaultAnswer.allowedForms
        default: "\(type)"
        }
    }

    private func parseToken(_ text: String) throws(SandboxError) -> DeviceToken {
        do { return try DeviceToken(parsing: text) } catch { throw .invalid("token: \(error.description)") }
    }

    private func parseEnvironment(_ text: String) throws(SandboxError) -> APNsEnvironment {
        switch text {
        case "development", "sandbox": return .development
        case "production": return .production
        default: throw .invalid("environment '\(text)' must be development or production")
        }
    }

    private func registerKey(_ request: RegisterKey) throws -> [String: String] {
        let environment = try request.environment.map(parseEnvironment)
        do {
            try ProviderKey.checkIdentifier(request.keyID, kind: "key id")
            try ProviderKey.checkIdentifier(request.teamID, kind: "team id")
        } catch {
            throw SandboxError.invalid(error.description)
        }
        let publicKey = try ProviderPublicKey.parse(request.pem)
        state.register(key: .init(keyID: request.keyID, teamID: request.teamID, publicKey: publicKey), environment: environment)
        return ["keyID": request.keyID, "teamID": request.teamID]
    }
}
