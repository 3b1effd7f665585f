import Foundation
import Synchronization

/// Hands out one provider token per key to every caller and refreshes it only within Apple's
/// window: after ``refreshInterval`` (20 to 59 minutes, default 50), never sooner than 20 minutes.
///
/// Share one source per (team, key) across all connections and workers — minting per request,
/// per topic or per connection is what makes APNs answer `TooManyProviderTokenUpdates`.
///
/// ```swift
/// let source = ProviderTokenSource(key: key)
/// let header = try source.currentToken().authorization
/// ```
public final class ProviderTokenSource: Sendable {
    /// The earliest Apple allows a new token: 20 minutes.
    public static let minimumRefreshInterval: TimeInterval = 20 * 60
    /// A token older than this is expired: 60 minutes.
    public static let maximumTokenAge: TimeInterval = 60 * 60
    /// Used when none is given: 50 minutes.
    public static let defaultRefreshInterval: TimeInterval = 50 * 60

    public let key: ProviderKey
    /// Age after which the next caller gets a new token.
    public let refreshInterval: TimeInterval
    private let clock: any WallClock
    private let state = Mutex<State>(State())

    private struct State {
        var token: ProviderToken?
        var minted = 0
    }

    /// - Parameter refreshInterval: clamped into 20 minutes…59 minutes so a token is always
    ///   replaced before APNs would call it expired and never sooner than Apple permits.
    /// - Parameter reusing: a token minted earlier with `key` (by an earlier run, say), used until
    ///   it is due for refresh, so short-lived processes do not mint a token each and trip
    ///   APNs' `TooManyProviderTokenUpdates`.
    public init(
        key: ProviderKey, refreshInterval: TimeInterval = ProviderTokenSource.defaultRefreshInterval, clock: any WallClock = SystemClock(),
        reusing earlier: ProviderToken? = nil
    ) {
        self.key = key
        self.refreshInterval = min(max(refreshInterval, Self.minimumRefreshInterval), Self.maximumTokenAge - 60)
        self.clock = clock
        if let earlier, earlier.keyID == key.keyID, earlier.teamID == key.teamID {
            state.withLock { $0.token = earlier }
        }
    }

    /// The token to send now: the current one, or a new one when it has reached ``refreshInterval``.
    public func currentToken() throws(ProviderKeyError) -> ProviderToken {
        let now = clock.now
        let result: Result<ProviderToken, ProviderKeyError> = state.withLock { state in
            // A negative age means the clock moved back: keep the token rather than mint one
            // within 20 minutes of it.
            if let token = state.token, token.age(at: now) < refreshInterval {
                return .success(token)
            }
            return mint(into: &state, at: now)
        }
        return try result.get()
    }

    /// After APNs answered `ExpiredProviderToken` for `rejected`: a new token if `rejected` is
    /// still the current one and at least 20 minutes old (so many callers reporting the same
    /// rejection cause one refresh); otherwise the current token.
    public func refresh(replacing rejected: ProviderToken) throws(ProviderKeyError) -> ProviderToken {
        let now = clock.now
        let result: Result<ProviderToken, ProviderKeyError> = state.withLock { state in
            if let token = state.token, token != rejected || token.age(at: now) < Self.minimumRefreshInterval {
                return .success(token)
            }
            return mint(into: &state, at: now)
        }
        return try result.get()
    }

    /// How old `token` is by this source's clock.
    public func age(of token: ProviderToken) -> TimeInterval {
        token.age(at: clock.now)
    }

    /// How many tokens this source has signed (for tests and metrics).
    public var mintedCount: Int { state.withLock { $0.minted } }

    private func mint(into state: inout State, at now: Date) -> Result<ProviderToken, ProviderKeyError> {
        do {
            let token = try ProviderToken(signedWith: key, issuedAt: now)
            state.token = token
            state.minted += 1
            return .success(token)
        } catch {
            return .failure(error)
        }
    }
}
