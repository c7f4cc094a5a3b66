import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a file so that a crash at any instant leaves either the old or the new content:
/// a temporary file in the same folder, fsync, rename over the original, fsync the folder.
/// The original's permission bits are kept; a new file gets `newFileMode`.
///
/// The temporary's name is short and its own (`.notula-tmp-XXXXXX`), not derived from the
/// note's: a note's name may already be as long as the file system allows (255 bytes).
public enum AtomicFileWriter: Sendable {
    /// Temporary files carry this marker so listings skip them and cleanup can find them.
    public static let temporaryMarker = ".notula-tmp-"
    /// A temporary untouched for this long belongs to no live writer (a write in progress
    /// changes its file as it goes): cleanup leaves younger ones alone.
    public static let abandonedAfter: TimeInterval = 10 * 60

    /// Our temporaries are hidden names with the marker (`.notula-tmp-XXXXXX`; before wave 2
    /// `.NAME.notula-tmp-XXXXXX`). The substring search runs only for hidden names: every name
    /// of the library is asked at each start.
    public static func isTemporary(_ name: String) -> Bool { name.hasPrefix(".") && name.contains(temporaryMarker) }

    /// The mode a file the user saves outside the library gets (an export, a saved copy): what
    /// any program would make, 0666 less the user's umask (read from `/proc`, since `umask()`
    /// can only be read by changing it, for every thread at once).
    public static let userDocumentMode: mode_t = {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        let mask = line.flatMap { mode_t($0.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0o022
        return 0o666 & ~mask
    }()

    /// Returns the identity of the file as written.
    @discardableResult
    public static func write(_ data: Data, to url: URL, newFileMode: mode_t = 0o600) throws -> FileIdentity {
        try put(data, at: url, newFileMode: newFileMode, failing: .rename) { rename($0, $1) }
    }

    /// Writes a new file at `url`, which must not exist: a file another program put there
    /// meanwhile is never replaced (EEXIST; `renameat2(RENAME_NOREPLACE)`). `modified` (an
    /// imported note's own date) is stamped on the temporary before it gets its name, so it
    /// can never land on another program's newer file.
    @discardableResult
    public static func create(_ data: Data, at url: URL, newFileMode: mode_t = 0o600, modified: timespec? = nil) throws -> FileIdentity {
        try put(data, at: url, newFileMode: newFileMode, modified: modified, failing: .create) { renameWithoutReplacing($0, $1) }
    }

    /// A temporary written, then moved to `url` by `move` (a rename of either kind).
    private static func put(_ data: Data, at url: URL, newFileMode: mode_t, modified: timespec? = nil, failing operation: StorageError.Operation,
                            by move: (String, String) -> Int32) throws -> FileIdentity {
        let path = url.path
        let (temporaryPath, info) = try writeTemporary(data, for: path, newFileMode: newFileMode, modified: modified)
        guard move(temporaryPath, path) == 0 else {
            let error = StorageError(operation, path: path)
            unlink(temporaryPath)
            throw error
        }
        syncFolder(url.deletingLastPathComponent().path)
        return FileIdentity(info, hash: ContentHash.of(data))
    }

    /// What `replace` found.
    public enum Replacement: Sendable {
        /// The file was the expected one; it holds `data` now.
        case written(FileIdentity)
        /// Another program's version was there instead: it is there still (put back, never
        /// overwritten), with its bytes and identity. Nothing of `data` is on disk.
        case foundOther(Data, FileIdentity)
        /// Nothing is at the path any more (deleted or moved away): nothing was written.
        case missing
    }

    /// Replaces the file at `url` with `data` only if it is still `expected` (its device,
    /// inode, size and modification time as last read or written), the check and the change
    /// in one step: the new file is exchanged with the old (`renameat2(RENAME_EXCHANGE)`), and
    /// what came out is compared with `expected`. Another program's version that arrived at
    /// any instant before is exchanged back into place and returned. Where the file system
    /// cannot exchange (FAT, some FUSE file systems: EINVAL) the check is a look right before
    /// the rename, the narrowest window left.
    public static func replace(_ data: Data, at url: URL, expecting expected: FileIdentity) throws -> Replacement {
        let path = url.path
        let folder = url.deletingLastPathComponent().path
        let (temporaryPath, info) = try writeTemporary(data, for: path, newFileMode: 0o600)
        let written = FileIdentity(info, hash: ContentHash.of(data))
        guard renameExchanging(temporaryPath, path) == 0 else {
            let code = errno
            guard code == EINVAL || code == ENOSYS else {
                unlink(temporaryPath)
                if code == ENOENT { return .missing }
                throw StorageError(.rename, path: path, code: code)
            }
            // No exchange here: look, then rename.
            switch FileIdentity.lookUp(url) {
            case .missing:
                unlink(temporaryPath)
                return .missing
            case .found(let current) where !current.hasSameMetadata(as: expected):
                unlink(temporaryPath)
                let other = try FileIdentity.read(url)
                return .foundOther(other.data, other.identity)
            default:
                guard rename(temporaryPath, path) == 0 else {
                    let error = StorageError(.rename, path: path)
                    unlink(temporaryPath)
                    throw error
                }
                syncFolder(folder)
                return .written(written)
            }
        }
        // The temporary's name holds what was at the path.
        var old = stat()
        if lstat(temporaryPath, &old) == 0, FileIdentity(old, hash: 0).hasSameMetadata(as: expected) {
            unlink(temporaryPath)
            syncFolder(folder)
            return .written(written)
        }
        // Not what was expected: another writer's. Back into place; ours comes out again.
        guard renameExchanging(temporaryPath, path) == 0 else { throw StorageError(.rename, path: path) }
        var back = stat()
        if lstat(temporaryPath, &back) == 0, back.st_ino == info.st_ino, back.st_dev == info.st_dev {
            unlink(temporaryPath)
        } else {
            // A third writer's version came out: it keeps a name of its own, never a
            // temporary's (which a cleanup removes).
            try FileSystem.keepBeside(temporaryPath, of: url, for: .rename)
        }
        syncFolder(folder)
        let other = try FileIdentity.read(url)
        return .foundOther(other.data, other.identity)
    }

    /// Writes `data` to a new temporary beside `path` (fsynced), with the mode `path` has, or
    /// `newFileMode` when there is nothing there yet; `modified` as its modification time.
    static func writeTemporary(_ data: Data, for path: String, newFileMode: mode_t, modified: timespec? = nil) throws -> (path: String, info: stat) {
        let folder = (path as NSString).deletingLastPathComponent
        var mode = newFileMode
        var info = stat()
        if stat(path, &info) == 0 { mode = info.st_mode & 0o7777 }
        var template = PathBytes.bytes("\(folder)/\(temporaryMarker)XXXXXX") + [0]  // the folder's own bytes
        let fd = template.withUnsafeMutableBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) } }
        guard fd >= 0 else { throw StorageError(.write, path: path) }
        let temporaryPath = PathBytes.string(template.dropLast())
        do {
            defer { close(fd) }
            // FAT and exFAT keep no modes: their drivers refuse (EPERM) or lack (ENOSYS) chmod.
            guard fchmod(fd, mode) == 0 || errno == EPERM || errno == ENOSYS || errno == EOPNOTSUPP else { throw StorageError(.write, path: path) }
            try data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw StorageError(.write, path: path)
                    }
                    offset += written
                }
            }
            if let modified {
                let times = [modified, modified]
                guard futimens(fd, times) == 0 else { throw StorageError(.write, path: path) }
            }
            guard fsync(fd) == 0 else { throw StorageError(.sync, path: path) }
            guard fstat(fd, &info) == 0 else { throw StorageError(.sync, path: path) }
        } catch {
            unlink(temporaryPath)
            throw error
        }
        return (temporaryPath, info)
    }

    /// Writes `value` as readable JSON (sorted keys, ISO 8601 dates), creating the folder (0700).
    public static func writeJSON<Value: Encodable>(_ value: Value, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try write(try encoder.encode(value), to: url)
    }

    /// Makes a rename or creation in `folder` durable.
    public static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Removes temporary files a crash left in `folder` (never a note itself): those not
    /// changed for `olderThan` seconds, so a write in progress — another document's, or a
    /// closing save of the note being opened again — keeps its temporary.
    /// Returns how many were removed.
    @discardableResult
    public static func removeLeftovers(in folder: URL, olderThan age: TimeInterval = abandonedAfter, now: Date = Date()) -> Int {
        guard let names = try? FolderEntries.read(folder.path, keeping: { $0.first == UInt8(ascii: ".") }).map(\.name) else { return 0 }
        var removed = 0
        for name in names where isTemporary(name) {
            let path = folder.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            guard now.timeIntervalSince1970 - modified >= age else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }
}
