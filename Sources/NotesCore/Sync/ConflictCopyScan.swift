import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The names in a folder that may be conflict copies, for a document that opens or a note
/// that is listed. A notebook can hold 50,000 notes: reading every name (and making a Swift
/// string of each) cost ~100 ms of CPU per note switch there. So the folder is read with
/// `readdir` (`FolderEntries`), a name becomes a string only when its bytes contain "conflict", and the result
/// is kept while the folder's modification time stays the same (any name created, removed or
/// renamed in it changes that time) — trusted only when the scan began well after that time,
/// since file system timestamps are coarse (git's "racy clean" rule).
public final class ConflictCopyScan: Sendable {
    public static let shared = ConflictCopyScan()

    private struct Entry: Sendable {
        var device: UInt64, inode: UInt64, modified: timespec
        var names: [String]
    }

    /// A scan this long after the folder last changed can be reused while it stays unchanged.
    static let settledAfter: TimeInterval = 2
    private let entries = Mutex<[String: Entry]>([:])

    /// Names in `folder` containing "conflict" (candidates for `ConflictCopy.parse`), sorted;
    /// empty when the folder cannot be read.
    public func candidates(in folder: URL) -> [String] {
        let path = folder.path
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        if let entry = entries.withLock({ $0[path] }), entry.device == UInt64(info.st_dev), entry.inode == UInt64(info.st_ino),
           entry.modified.tv_sec == info.st_mtim.tv_sec, entry.modified.tv_nsec == info.st_mtim.tv_nsec {
            return entry.names
        }
        let began = Date().timeIntervalSince1970
        guard let names = try? FolderEntries.read(path, keeping: ConflictCopy.containsMarker).map(\.name).sorted() else { return [] }
        let changed = TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9
        if began - changed >= Self.settledAfter {
            let entry = Entry(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), modified: info.st_mtim, names: names)
            entries.withLock { entries in
                if entries.count > 1000 { entries.removeAll() }  // folders come and go; keep it small
                entries[path] = entry
            }
        }
        return names
    }

    /// A watcher saw names change in `folder`: read it again next time, whatever its time says
    /// (some file systems, FUSE ones among them, do not update a folder's time reliably).
    public func forget(_ folder: URL) {
        _ = entries.withLock { $0.removeValue(forKey: folder.path) }
    }
}
