#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// An exclusive lock on the SQLite database file itself (`flock`), held while this process
/// delivers from it: ``SQLiteLeases`` live in one process's memory, so a second process must not
/// claim from the same file, whatever path leads to it (a symlink, a hard link, `..`). The kernel
/// drops the lock when the process ends, however it ends.
///
/// `flock` locks and the POSIX record locks SQLite uses do not interact on Linux. But closing
/// *any* descriptor of a file drops the POSIX locks the process holds on it, so the descriptor
/// opened here stays open (locked or not) until the store has closed its connections.
final class SQLiteDeliveryLock: Sendable {
    let path: String
    private struct State {
        var descriptor: Int32?
        var locked = false
    }
    private let state = Mutex(State())

    init(databasePath: String) {
        path = databasePath
    }

    /// Takes the lock, or throws ``StoreError/deliveryLockHeld(_:)`` when another process (or
    /// another store of this process) holds it.
    func acquire() throws {
        try state.withLock { state in
            guard !state.locked else { return }
            if state.descriptor == nil {
                let opened = open(path, O_RDONLY | O_CLOEXEC)
                guard opened >= 0 else { throw StoreError.deliveryLock(path, reason: String(cString: strerror(errno))) }
                state.descriptor = opened
            }
            guard flock(state.descriptor!, LOCK_EX | LOCK_NB) == 0 else {
                let reason = errno
                if reason == EWOULDBLOCK { throw StoreError.deliveryLockHeld(path) }
                throw StoreError.deliveryLock(path, reason: String(cString: strerror(reason)))
            }
            state.locked = true
        }
    }

    /// Gives the lock up; called once the store's connections are closed.
    func release() {
        state.withLock { state in
            if let open = state.descriptor { close(open) }
            state = State()
        }
    }

    deinit { release() }
}
