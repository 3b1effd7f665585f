import Foundation
import HeraldCore

/// Provider tokens kept between `herald` runs (`tokens.json` in ``HeraldHome``, 0600), one per
/// team and key: APNs answers `TooManyProviderTokenUpdates` to a team whose token changes within
/// 20 minutes, which a command run twice in a row would otherwise cause.
struct TokenCache {
    let home: HeraldHome
    static let fileName = "tokens.json"

    /// A token source for `key`, starting from the kept token when it is still good.
    func source(for key: ProviderKey) -> ProviderTokenSource {
        ProviderTokenSource(key: key, reusing: kept(for: key))
    }

    /// The token kept for `key`, when it is still good.
    func kept(for key: ProviderKey) -> ProviderToken? {
        load()[Self.name(key)].flatMap { ProviderToken(reusing: $0, signedWith: key, now: Date()) }
    }

    /// Keeps the source's current token for the next run (a failure to write is not fatal).
    func keep(_ source: ProviderTokenSource) {
        guard let token = try? source.currentToken() else { return }
        var tokens = load()
        guard tokens[Self.name(source.key)] != token.jwt else { return }
        tokens[Self.name(source.key)] = token.jwt
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        if let data = try? encoder.encode(tokens) { try? home.writePrivately(data, to: Self.fileName) }
    }

    private func load() -> [String: String] {
        guard let data = try? Data(contentsOf: home.file(Self.fileName)) else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:]
    }

    private static func name(_ key: ProviderKey) -> String { "\(key.teamID)/\(key.keyID)" }
}
