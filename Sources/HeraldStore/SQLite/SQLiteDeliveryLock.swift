#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// An exclusive lock, held while this process delivers from a SQLite file, on a file next to it
/// (`herald.sqlite-delivery-lock`): ``SQLiteLeases`` live in one process's memory, so a second
/// process must not claim from the same file. The kernel drops the lock when the process ends,
/// however it ends.
///
/// The lock is not taken on the database file itself: closing any descriptor of that file would
/// drop the POSIX locks SQLite holds on it.
final class SQLiteDeliveryLock: Sendable {
    let path: String
    private let descriptor = Mutex<Int32?>(nil)

    init(databasePath: String) {
        path = databasePath + "-delivery-lock"
    }

    /// Takes the lock, or throws ``StoreError/deliveryLockHeld(_:)`` when another process holds it.
    func acquire() throws {
        try descriptor.withLock { descriptor in
            guard descriptor == nil else { return }
            let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard opened >= 0 else { throw StoreError.deliveryLock(path, reason: String(cString: strerror(errno))) }
            guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
                let reason = errno
                close(opened)
                if reason == EWOULDBLOCK { throw StoreError.deliveryLockHeld(path) }
                throw StoreError.deliveryLock(path, reason: String(cString: strerror(reason)))
            }
            descriptor = opened
        }
    }

    /// Gives the lock up (the store is closing).
    func release() {
        descriptor.withLock { descriptor in
            if let open = descriptor { close(open) }
            descriptor = nil
        }
    }

    deinit { release() }
}
