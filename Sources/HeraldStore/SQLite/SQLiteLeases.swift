import Foundation

/// The leases on a SQLite store's queue rows, kept in memory.
///
/// One process delivers from a SQLite file (``SQLiteDeliveryLock``), so a claim only reads rows
/// and writes nothing: the lease lives here, and a crash ends every lease with the process, which
/// is when they must end anyway. A cursor remembers how far claims have read, so a claim does
/// not walk past the rows that workers hold.
struct SQLiteLeases: Sendable {
    struct Lease: Sendable {
        var owner: String?
        var until: Date
        /// Claims not yet written to the row's `attempts`.
        var claims: Int
    }

    private(set) var held: [Int64: Lease] = [:]
    /// Every queued row at or below it is held by a lease that has not ended: claims read above it.
    private(set) var cursor: Int64 = 0

    /// Lowers the cursor below rows whose lease has ended by `now`, so claims take them again.
    mutating func reopenEnded(now: Date) {
        for (id, lease) in held where lease.until <= now && id <= cursor {
            cursor = id - 1
        }
    }

    /// Whether another claim holds the row at `now`.
    func isHeld(_ id: Int64, at now: Date) -> Bool {
        held[id].map { $0.until > now } ?? false
    }

    /// Leases the row to `owner`; returns the claims counted for it so far, this one included.
    mutating func take(_ id: Int64, owner: String, until: Date) -> Int {
        let claims = (held[id]?.claims ?? 0) + 1
        held[id] = Lease(owner: owner, until: until, claims: claims)
        return claims
    }

    /// Claims have read every queued row up to `id`.
    mutating func advance(to id: Int64) {
        cursor = max(cursor, id)
    }

    /// The claims counted for a row whose outcome is being recorded: at least one, except for a
    /// row put back to retry and not claimed since (its outcome written again counts nothing).
    func claims(of id: Int64) -> Int {
        guard let lease = held[id] else { return 1 }
        if lease.owner == nil && lease.claims == 0 { return 0 }
        return max(lease.claims, 1)
    }

    /// The row stays queued but is not claimed before `until` (a retry after back-off); its
    /// claims are written to the row.
    mutating func postpone(_ id: Int64, until: Date) {
        held[id] = Lease(owner: nil, until: until, claims: 0)
    }

    /// Extends `owner`'s leases on `ids` to `until` (the owner is alive and still working on them).
    mutating func renew(owner: String, ids: [Int64], until: Date) {
        for id in ids {
            guard let lease = held[id], lease.owner == owner, lease.until < until else { continue }
            held[id]?.until = until
        }
    }

    /// The row's outcome is recorded: it is no longer in the queue.
    mutating func finish(_ id: Int64) {
        held.removeValue(forKey: id)
    }

    /// The rows left the queue without an outcome (cancelled, deleted): retries waiting in
    /// memory are forgotten; rows a worker holds keep their lease until it records them.
    mutating func drop(_ ids: [Int64]) {
        for id in ids where held[id]?.owner == nil {
            held.removeValue(forKey: id)
        }
    }

    /// Ends `owner`'s leases at once; the claims they counted are given back.
    mutating func release(owner: String) {
        for (id, lease) in held where lease.owner == owner {
            cursor = min(cursor, id - 1)
            if lease.claims <= 1 {
                held.removeValue(forKey: id)
            } else {
                held[id] = Lease(owner: nil, until: .distantPast, claims: lease.claims - 1)
            }
        }
    }
}
