import Foundation

/// A serial queue on a thread of its own that runs below the rest of the app (nice 10), for
/// long background work that must not take the CPU from the main thread: indexing a 1 MB note
/// into SQLite at each autosave otherwise competes with typing on a two-core machine. (A
/// DispatchQueue cannot do this: its pool threads run other queues' work next, and a thread's
/// nice value cannot be lowered back without privileges.) The thread ends with the queue,
/// after the work already queued.
public final class LowPriorityQueue: Sendable {
    /// `@unchecked`: its two fields are touched only while holding `condition`.
    private final class Work: @unchecked Sendable {
        let condition = NSCondition()
        var blocks: [@Sendable () -> Void] = []
        var isFinished = false
    }

    private let work = Work()

    public init(label: String, nice: Int32 = 10) {
        let work = self.work
        let thread = Thread {
            // On Linux the nice value belongs to the calling thread (NPTL), not the process.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
            while true {
                work.condition.lock()
                while work.blocks.isEmpty && !work.isFinished { work.condition.wait() }
                if work.blocks.isEmpty {
                    work.condition.unlock()
                    return
                }
                let block = work.blocks.removeFirst()
                work.condition.unlock()
                block()
            }
        }
        thread.name = label
        thread.start()
    }

    deinit {
        work.condition.lock()
        work.isFinished = true
        work.condition.signal()
        work.condition.unlock()
    }

    public func async(_ block: @escaping @Sendable () -> Void) {
        work.condition.lock()
        work.blocks.append(block)
        work.condition.signal()
        work.condition.unlock()
    }
}
