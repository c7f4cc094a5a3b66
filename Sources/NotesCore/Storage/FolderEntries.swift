import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A folder's names with what readdir says they are, without a stat per name: a library
/// folder of 100,000 notes is listed in milliseconds, and only the few entries whose type the
/// file system does not report (DT_UNKNOWN) are looked at with lstat.
public enum FolderEntries: Sendable {
    public struct Entry: Sendable {
        public let name: String
        public let isFolder: Bool
    }

    /// The entries of `path` ("." and ".." left out) whose name's bytes `keeping` accepts — a
    /// name becomes a string only then (`PathBytes`: bytes that are not UTF-8 kept as
    /// escapes); throws the listing's error.
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    public static func read(_ path: String, keeping: (UnsafeRawBufferPointer) -> Bool = { _ in true }) throws -> [Entry] {
        guard let directory = opendir(path) else {
            throw StorageError.lookingUp(.listFolder, path: path)
        }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            // The name runs to its NUL within the record (`d_reclen`), which may pass the 256
            // bytes `d_name` is declared with: exFAT and FUSE file systems have longer names.
            let start = UnsafeRawPointer(entry) + Self.nameOffset
            let bytes = UnsafeRawBufferPointer(start: start, count: strnlen(start.assumingMemoryBound(to: CChar.self), Int(entry.pointee.d_reclen) - Self.nameOffset))
            let name: String? = keeping(bytes) ? PathBytes.string(bytes) : nil  // a name that is not UTF-8 keeps its bytes
            guard let name, name != ".", name != ".." else { continue }
            var isFolder = Int32(entry.pointee.d_type) == Int32(DT_DIR)
            if Int32(entry.pointee.d_type) == Int32(DT_UNKNOWN) {
                var info = stat()
                isFolder = lstat(path + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
            entries.append(Entry(name: name, isFolder: isFolder))
        }
        return entries
    }
}
