import Foundation
import HeraldCore
import HeraldStore
import NIOSSL

/// `POST /v1/apps` and `PATCH /v1/apps/{app}`: an app and its credentials.
struct AppInput: Decodable, Sendable {
    var name: String?
    var bundleId: String?
    var teamId: String?
    /// Per environment (`production`, `development`); `null` removes one.
    var credentials: [String: CredentialInput?]?
    var rateLimit: Int?
    var feedbackUrl: String?
    /// An IANA time zone (`Europe/Paris`) for devices registered without one.
    var defaultTimeZone: String?
    /// Fields given as `null`: a PATCH clears them (``clearable``); a required one is an error.
    var nulls: Set<String> = []

    /// The fields `null` clears.
    static let clearable: Set<String> = ["rateLimit", "feedbackUrl", "defaultTimeZone", "teamId"]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, bundleId, teamId, credentials, rateLimit, feedbackUrl, defaultTimeZone
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId)
        teamId = try container.decodeIfPresent(String.self, forKey: .teamId)
        credentials = try container.decodeIfPresent([String: CredentialInput?].self, forKey: .credentials)
        rateLimit = try container.decodeIfPresent(Int.self, forKey: .rateLimit)
        feedbackUrl = try container.decodeIfPresent(String.self, forKey: .feedbackUrl)
        defaultTimeZone = try container.decodeIfPresent(String.self, forKey: .defaultTimeZone)
        for key in CodingKeys.allCases where container.contains(key) {
            if try container.decodeNil(forKey: key) { nulls.insert(key.rawValue) }
        }
    }

    /// A `.p8` key (PEM text and key id) or a `.p12` file (base64, with its password).
    struct CredentialInput: Decodable, Sendable {
        var p8: String?
        var keyId: String?
        var p12: String?
        var password: String?
    }

    /// Applies the input to `app` (a new one or the stored one), checking every field.
    func apply(to app: inout StoredApp) throws(APIError) {
        if let required = nulls.subtracting(Self.clearable).subtracting(["credentials"]).sorted().first {
            throw .badRequest("\(required) cannot be null; null clears only \(Self.clearable.sorted().joined(separator: ", "))")
        }
        if nulls.contains("rateLimit") { app.rateLimit = nil }
        if nulls.contains("feedbackUrl") { app.feedbackURL = nil }
        if nulls.contains("defaultTimeZone") { app.defaultTimeZone = nil }
        if nulls.contains("teamId") {
            guard !app.credentials.contains(where: { if case .token = $0.secret { true } else { false } }) else {
                throw .badRequest("teamId cannot be cleared while a .p8 credential needs it; remove that credential first")
            }
            app.teamID = nil
        }
        if let name {
            guard !name.isEmpty, name.count <= 200 else { throw .badRequest("name must be 1 to 200 characters") }
            app.name = name
        }
        if let bundleId {
            guard Self.isBundleID(bundleId) else {
                throw .badRequest("bundleId '\(bundleId)' is not a bundle id: use letters, digits, '-' and '.', like com.example.app")
            }
            app.bundleID = bundleId
        }
        if let teamId {
            do { try ProviderKey.checkIdentifier(teamId, kind: "teamId") } catch { throw .badRequest("\(error)") }
            app.teamID = teamId
        }
        if let rateLimit {
            guard rateLimit >= 1 else { throw .badRequest("rateLimit is notifications per second and must be at least 1 (leave it out for no limit)") }
            app.rateLimit = rateLimit
        }
        if let feedbackUrl {
            guard let url = URL(string: feedbackUrl), url.scheme == "https" || url.scheme == "http", let host = url.host, !host.isEmpty else {
                throw .badRequest("feedbackUrl must be an https:// (or http://) URL; got '\(feedbackUrl)'")
            }
            app.feedbackURL = feedbackUrl
        }
        if let defaultTimeZone {
            guard TimeZone(identifier: defaultTimeZone) != nil else {
                throw .badRequest("defaultTimeZone '\(defaultTimeZone)' is not an IANA time zone such as Europe/Paris or America/New_York")
            }
            app.defaultTimeZone = defaultTimeZone
        }
        for (name, input) in credentials ?? [:] {
            let environment = APNsEnvironment(rawValue: name)
            guard environment == .production || environment == .development else {
                throw .badRequest("credentials has '\(name)'; the environments are production and development")
            }
            app.credentials.removeAll { $0.environment == environment }
            if let input { app.credentials.append(try input.credential(for: environment, teamID: app.teamID)) }
        }
        app.credentials.sort { $0.environment.rawValue < $1.environment.rawValue }
    }

    static func isBundleID(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 155 && !text.hasPrefix(".") && !text.hasSuffix(".")
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
    }
}

extension AppInput.CredentialInput {
    func credential(for environment: APNsEnvironment, teamID: String?) throws(APIError) -> AppCredential {
        switch (p8, p12) {
        case (let pem?, nil):
            guard let teamID else { throw .badRequest("a .p8 key needs the app's teamId") }
            guard let keyId else { throw .badRequest("credentials.\(environment).keyId is missing (the 10-character key id of the .p8 key)") }
            do {
                _ = try ProviderKey(pem: pem, keyID: keyId, teamID: teamID)
            } catch {
                throw .badRequest("credentials.\(environment).p8: \(error)")
            }
            return AppCredential(environment: environment, secret: .token(keyID: keyId, pem: pem))
        case (nil, let base64?):
            guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
                throw .badRequest("credentials.\(environment).p12 must be the .p12 file in base64")
            }
            do {
                _ = try NIOSSLPKCS12Bundle(buffer: Array(data), passphrase: Array((password ?? "").utf8))
            } catch {
                throw .badRequest("credentials.\(environment).p12 could not be opened (wrong password or not a PKCS#12 file): \(error)")
            }
            return AppCredential(environment: environment, secret: .pkcs12(base64: base64, password: password))
        default:
            throw .badRequest("credentials.\(environment) needs exactly one of p8 (with keyId) or p12 (with password)")
        }
    }
}

extension AppInput: KnownFields {
    static var fields: [String: FieldShape] { [
        "name": .value, "bundleId": .value, "teamId": .value, "credentials": .objects(CredentialInput.self), "rateLimit": .value,
        "feedbackUrl": .value, "defaultTimeZone": .value,
    ] }
}

extension AppInput.CredentialInput: KnownFields {
    static var fields: [String: FieldShape] { ["p8": .value, "keyId": .value, "p12": .value, "password": .value] }
}
