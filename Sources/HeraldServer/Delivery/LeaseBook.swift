import Foundation
import Synchronization

/// What a node knows for certain about its leases: for each batch its workers hold, until when
/// the batch's rows are its own.
///
/// A claim starts a batch's lease. A heartbeat's renewal extends it only when the renewal came
/// back before the lease ended: only then did the store apply it while the rows were still
/// this node's. A renewal that lands later (a lock wait, a slow disk, an outage) may find the
/// rows taken by another node, or by another worker of this one, and keep nothing; the batch
/// then stops sending at its own lease's end.
final class LeaseBook: Sendable {
    /// One claimed batch's hold on its rows.
    final class Lease: Sendable {
        /// The batch's rows.
        let ids: [Int64]
        private let end: Mutex<Date>

        init(ids: [Int64], until: Date) {
            self.ids = ids
            end = Mutex(until)
        }

        /// When the rows stop being this batch's, as far as anything that came back says.
        var until: Date { end.withLock { $0 } }

        /// Moves the end to `until` if a renewal that came back at `renewedAt` found it running.
        fileprivate func extend(to until: Date, renewedAt: Date) {
            end.withLock { end in
                if renewedAt < end { end = max(end, until) }
            }
        }
    }

    private let leases = Mutex<[ObjectIdentifier: Lease]>([:])

    /// A batch's lease, from its claim to `until`.
    func start(ids: [Int64], until: Date) -> Lease {
        let lease = Lease(ids: ids, until: until)
        leases.withLock { $0[ObjectIdentifier(lease)] = lease }
        return lease
    }

    /// The batch is done with its rows: renewals leave them alone from now on.
    func end(_ lease: Lease) {
        _ = leases.withLock { $0.removeValue(forKey: ObjectIdentifier(lease)) }
    }

    /// The leases still running at `now`: those a renewal starting now can keep.
    func running(at now: Date) -> [Lease] {
        leases.withLock { $0.values.filter { $0.until > now } }
    }

    /// Records a renewal of `renewed` to `until` that came back at `renewedAt`: each lease still
    /// running then is extended, the others keep their end.
    func renewed(_ renewed: [Lease], to until: Date, renewedAt: Date) {
        for lease in renewed { lease.extend(to: until, renewedAt: renewedAt) }
    }
}
