import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Keeps glibc's freed memory from staying in the process's RSS. (Its functions are not in
/// Swift's Glibc module, so they are looked up.)
public enum MemoryTrim: Sendable {
    /// Gives memory that was freed back to the system. glibc keeps freed memory for reuse, so
    /// the peak of starting with 100,000 notes (the index's rows, the list being built) stayed
    /// in the process's RSS for good; `malloc_trim` returns the free pages.
    public static func returnFreedMemory() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        typealias MallocTrim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }

    /// One malloc arena for every thread. Otherwise each thread that allocates gets an arena
    /// of its own (up to 8 per core), and what the index lists on its queue (the summaries the
    /// list keeps) stays scattered over that arena's pages, which no trim returns: 10,000
    /// notes took 19–20.5 MB of RSS over an empty library, 17–18 with one arena; 100,000
    /// 60–61.6, 52–53 (two arenas: 52 or 61 from run to run). Notula's threads allocate
    /// little at once, so sharing the arena's lock costs nothing measurable. Call it first,
    /// before any thread starts.
    public static func useOneArena() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let arenaMax: Int32 = -8  // M_ARENA_MAX in malloc.h
        _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMax, 1)
    }
}
