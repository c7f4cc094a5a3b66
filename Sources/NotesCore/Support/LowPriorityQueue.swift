import Foundation
import Synchronization

/// A serial queue on a thread of its own that runs below the rest of the app (nice 10), for
/// long background work that must not take the CPU from the main thread: indexing a 1 MB note
/// into SQLite at each autosave otherwise competes with typing on a two-core machine. (A
/// DispatchQueue cannot do this: its pool threads run other queues' work next, and a thread's
/// nice value cannot be lowered back without privileges.) The thread ends with the queue,
/// after the work already queued.
public final class LowPriorityQueue: Sendable {
    /// The work waiting, shared with the thread (which must not hold the queue itself). `ready`
    /// is signalled once per block and once when the queue goes: a wake-up that finds nothing
    /// left means the queue is gone.
    private final class Work: Sendable {
        let blocks = Mutex<[@Sendable () -> Void]>([])
        let ready = DispatchSemaphore(value: 0)
    }

    private let work = Work()

    public init(label: String, nice: Int32 = 10) {
        let work = self.work
        let thread = Thread {
            // On Linux the nice value belongs to the calling thread (NPTL), not the process.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
            Self.nameThisThread(label)
            while true {
                work.ready.wait()
                guard let next = work.blocks.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }  // the queue is gone
                next()
            }
        }
        thread.name = label
        thread.start()
    }

    deinit { work.ready.signal() }

    /// The name `top -H`, perf and /proc show (Foundation's `Thread.name` stays inside Swift;
    /// `pthread_setname_np` is a GNU extension, not in Swift's Glibc module, so it is looked up).
    static func nameThisThread(_ label: String) {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_setname_np") else { return }
        typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
        _ = unsafeBitCast(symbol, to: SetName.self)(pthread_self(), String(decoding: label.utf8.prefix(15), as: UTF8.self))
    }

    public func async(_ block: @escaping @Sendable () -> Void) {
        work.blocks.withLock { $0.append(block) }
        work.ready.signal()
    }

    /// Runs `block` on the queue's thread and returns when it is done: the caller's queue (a
    /// writer queue that keeps order) waits, while the work runs below the main thread.
    public func sync(_ block: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        async {
            block()
            done.signal()
        }
        done.wait()
    }
}
