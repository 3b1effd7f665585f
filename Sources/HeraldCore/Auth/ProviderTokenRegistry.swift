import Foundation
import Synchronization

/// Keeps one ``ProviderTokenSource`` per (team id, key id), so every client, connection and worker
/// that signs with the same key shares one token, however each of them obtained the key.
///
/// ```swift
/// let registry = ProviderTokenRegistry()
/// let a = registry.source(for: key)
/// let b = registry.source(for: sameKeyLoadedAgain)   // a === b
/// ```
public final class ProviderTokenRegistry: Sendable {
    private struct Identity: Hashable {
        let teamID: String
        let keyID: String
    }

    private let sources = Mutex<[Identity: ProviderTokenSource]>([:])
    private let refreshInterval: TimeInterval
    private let clock: any WallClock

    public init(refreshInterval: TimeInterval = ProviderTokenSource.defaultRefreshInterval, clock: any WallClock = SystemClock()) {
        self.refreshInterval = refreshInterval
        self.clock = clock
    }

    /// The shared source for `key`'s team and key id, made on first use.
    public func source(for key: ProviderKey) -> ProviderTokenSource {
        sources.withLock { sources in
            let identity = Identity(teamID: key.teamID, keyID: key.keyID)
            if let existing = sources[identity] { return existing }
            let source = ProviderTokenSource(key: key, refreshInterval: refreshInterval, clock: clock)
            sources[identity] = source
            return source
        }
    }
}
