import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Gives memory that was freed back to the system. glibc keeps freed memory for reuse, so
/// the peak of starting with 100,000 notes (the index's rows, the list being built) stayed in
/// the process's RSS for good; `malloc_trim` returns the free pages. (It is not in Swift's
/// Glibc module, so it is looked up.)
public enum MemoryTrim: Sendable {
    public static func returnFreedMemory() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        typealias MallocTrim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }
}
