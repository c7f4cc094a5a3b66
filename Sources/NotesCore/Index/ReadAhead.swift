import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Reads the beginning of new notes a little ahead of the reconcile, several at once (issue
/// #46). A first start reads every note one after another, and from a cold disk each read
/// waits alone: 100,000 notes of 2.3 KB took 7.4 s here, read by four threads at once 2.8 s.
/// What the reconcile (and the texts after it) then read comes from the page cache.
///
/// It only reads, as `RegularFile` does (non-blocking, no link followed, regular files only),
/// keeps nothing, and stays at most `lead` files ahead of the reconcile (`passed`), so a large
/// library does not push its own first pages out of the cache. Its threads run below the
/// window (nice 10) and end with `finish`.
final class ReadAhead: Sendable {
    private struct State {
        /// Paths inside the library; those passed are dropped now and then.
        var ids: [String] = []
        /// The next id a thread reads, and how many the reconcile has passed.
        var next = 0
        var passed = 0
        var finished = false
        var started = false
    }

    private let state = Mutex(State())
    /// Signalled when there may be more to read (or nothing more at all).
    private let wake = DispatchSemaphore(value: 0)
    private let library: String
    private let threads: Int
    private let lead: Int
    /// As much as the reconcile reads of a note (its first page comes with it).
    private let bytes: Int

    /// `library`: the library folder's path.
    init(library: String, threads: Int = 4, lead: Int = 1000, bytes: Int = NoteLibrary.summaryPrefixLength) {
        (self.library, self.threads, self.lead, self.bytes) = (library, threads, lead, bytes)
    }

    /// Notes (paths inside the library) the reconcile will read next, in the order it reads
    /// them. The threads start once there are `worthThreads` (a warm start finds a few new
    /// notes, read as fast alone).
    func add(_ ids: [String]) {
        guard !ids.isEmpty else { return }
        let start = state.withLock { state in
            state.ids += ids
            guard !state.started, !state.finished, state.ids.count - state.passed >= Self.worthThreads else { return false }
            state.started = true
            return true
        }
        if start {
            for _ in 0..<threads { startThread() }
        }
        for _ in 0..<threads { wake.signal() }
    }

    /// The reconcile read one of the files added (in their order).
    func passed() {
        let wakes = state.withLock { state in
            state.passed += 1
            let waiting = state.next < state.ids.count && state.next == state.passed - 1 + lead
            if state.passed >= 8192 {  // what was passed is not kept
                state.ids.removeFirst(state.passed)
                state.next = max(0, state.next - state.passed)
                state.passed = 0
            }
            return waiting
        }
        if wakes { wake.signal() }
    }

    /// Stops reading; the threads end (the reconcile calls it however it ends).
    func finish() {
        state.withLock { $0.finished = true }
        for _ in 0..<threads { wake.signal() }
    }

    static let worthThreads = 64
    static let threadName = "notula.read-ahead"

    private func startThread() {
        let thread = Thread { [self] in
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)  // this thread only (NPTL)
            LowPriorityQueue.nameThisThread(Self.threadName)
            var buffer = [UInt8](repeating: 0, count: bytes)
            while true {
                enum Step { case read(String), wait, end }
                let step = state.withLock { state -> Step in
                    if state.finished { return .end }
                    state.next = max(state.next, state.passed)  // the reconcile read those itself
                    guard state.next < state.ids.count, state.next < state.passed + lead else { return .wait }
                    defer { state.next += 1 }
                    return .read(library + "/" + state.ids[state.next])
                }
                switch step {
                case .end: return
                case .wait: _ = wake.wait(timeout: .now() + .milliseconds(100))
                case .read(let path): Self.readBeginning(of: path, into: &buffer)
                }
            }
        }
        thread.name = Self.threadName
        thread.start()
    }

    private static func readBeginning(of path: String, into buffer: inout [UInt8]) {
        let fd = NotesCore.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        _ = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    }
}
