import Foundation
import Synchronization

/// What `SQLiteDatabase.stoppable` runs now on one connection, by thread, and whether each was
/// asked to stop. SQLite's progress handler asks it, on the thread that steps, every thousand
/// instructions: only a stoppable operation asked to stop is stopped, never another thread's
/// statement on the same connection (sqlite3_interrupt stops them all).
final class StoppableOperations: Sendable {
    private let running = Mutex<[pthread_t: Bool]>([:])

    func begin(on thread: pthread_t) { running.withLock { $0[thread] = false } }
    func end(on thread: pthread_t) { _ = running.withLock { $0.removeValue(forKey: thread) } }

    /// Every operation running now stops at its next check; those begun later run.
    func stopAll() { running.withLock { for thread in $0.keys { $0[thread] = true } } }

    func shouldStop(on thread: pthread_t) -> Bool { running.withLock { $0[thread] ?? false } }
}
