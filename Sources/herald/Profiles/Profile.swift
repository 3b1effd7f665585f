import Foundation

/// Saved credentials and target for `herald send --profile NAME`.
struct Profile: Codable, Equatable {
    var name: String
    /// `sandbox` (Apple development), `production`, or a URL.
    var target: String?
    var cacert: String?
    var bundleID: String?
    var key: String?
    var keyID: String?
    var teamID: String?
    var cert: String?
    var certKey: String?
    var certPassword: String?

    /// One line for `herald profile list`: never a password, only whether one is set.
    var summary: String {
        var parts = [name]
        if let key { parts.append("token: \(keyID ?? "key id from file name") team \(teamID ?? "?") (\(key))") }
        if let cert { parts.append("certificate: \(cert)\(certPassword != nil ? " (password set)" : "")") }
        if let bundleID { parts.append("bundle \(bundleID)") }
        parts.append("to \(target ?? "sandbox")")
        return parts.joined(separator: " · ")
    }
}

/// The profiles file (`profiles.json` in ``HeraldHome``), written 0600.
struct ProfileStore {
    let home: HeraldHome
    static let fileName = "profiles.json"

    func load() throws -> [Profile] {
        let url = home.file(Self.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            return try JSONDecoder().decode([Profile].self, from: Data(contentsOf: url))
        } catch {
            throw CommandError("cannot read \(url.path): \(error.localizedDescription); fix or remove the file")
        }
    }

    func save(_ profiles: [Profile]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try home.writePrivately(try encoder.encode(profiles.sorted { $0.name < $1.name }), to: Self.fileName)
    }

    func profile(named name: String) throws -> Profile {
        let profiles = try load()
        guard let profile = profiles.first(where: { $0.name == name }) else {
            let known = profiles.map(\.name)
            throw CommandError("no profile named '\(name)'" + (known.isEmpty ? "; add one with herald profile add" : "; there are \(known.joined(separator: ", "))"))
        }
        return profile
    }
}
