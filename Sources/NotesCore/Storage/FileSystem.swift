import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What NotesCore asks of folders and files beyond single system calls, on Notula's path
/// strings (`PathBytes`: names that are not UTF-8 reach the disk as their bytes). Foundation's
/// `FileManager` turns a path into bytes by its UTF-8, so it is not used for paths in the library.
public enum FileSystem {
    /// Whether something (a file, a folder, a link, dangling or not) is at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Why nothing can be looked up at `path` (its errno: ENOENT when it is not there), or nil
    /// when something is there.
    public static func lookUpError(_ path: String) -> Int32? {
        var info = stat()
        return lstat(path, &info) == 0 ? nil : errno
    }

    /// Whether `path` is a folder (a link to one is not).
    public static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The modification time of what is at `path`.
    public static func modificationDate(_ path: String) -> Date? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
    }

    /// `name`, or "name 2", "name 3"… (before the extension) — the first that `folder` has not.
    public static func freeName(_ name: String, in folder: String) -> String {
        var attempt = 1
        while exists(folder + "/" + numberedName(name, attempt)) { attempt += 1 }
        return numberedName(name, attempt)
    }

    /// Renames `source` into `folder` under the first of `candidate(1)`, `candidate(2)`… that is
    /// free, never over anything: a name another program takes between the look and the rename
    /// is skipped (`renameWithoutReplacing`: EEXIST), so the check and the rename are one step.
    /// Returns the name used.
    public static func renameToFreeName(_ source: String, in folder: String, for operation: StorageError.Operation,
                                        candidate: (Int) -> String) throws -> String {
        for attempt in 1...10_000 {
            let name = candidate(attempt)
            if exists(folder + "/" + name) { continue }
            if renameWithoutReplacing(source, folder + "/" + name) == 0 { return name }
            guard errno == EEXIST || errno == ENOTEMPTY else { throw StorageError(operation, path: source) }
        }
        throw StorageError(operation, path: source, code: EEXIST)
    }

    /// Puts the file at `path` (a private name) beside `note` as "NAME (another version).EXT"
    /// — "… 2", "… 3" when taken — never over anything: another program's version a write
    /// or removal found in its way, kept where the user sees it.
    @discardableResult
    public static func keepBeside(_ path: String, of note: URL, for operation: StorageError.Operation) throws -> String {
        let name = note.lastPathComponent
        let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        return try renameToFreeName(path, in: note.deletingLastPathComponent().path, for: operation) { attempt in
            numberedName(base + " (another version)" + (ext.isEmpty ? "" : "." + ext), attempt)
        }
    }

    /// "name", "name 2", "name 3"… (before the extension): the candidates of `freeName`.
    public static func numberedName(_ name: String, _ attempt: Int) -> String {
        guard attempt > 1 else { return name }
        let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        return FileNameLength.fit(base, " \(attempt)" + (ext.isEmpty ? "" : ".\(ext)"))
    }

    /// Makes the folder at `path` and those above it that are missing, with `mode`; throws the
    /// errno of the first that could not be made (EEXIST when a file is in the way).
    public static func makeFolders(_ path: String, mode: mode_t = 0o700, for operation: StorageError.Operation = .createFolder) throws {
        if isFolder(path) { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, !exists(parent) { try makeFolders(parent, mode: mode, for: operation) }
        guard mkdir(path, mode) == 0 || errno == EEXIST && isFolder(path) else {
            throw StorageError(operation, path: path)
        }
    }

    /// Removes what is at `path`, a folder with everything in it; links are removed, never
    /// followed. Throws the first failure (what could be removed is gone).
    public static func removeTree(_ path: String, for operation: StorageError.Operation = .remove) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw StorageError(operation, path: path) }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            for entry in try FolderEntries.read(path) { try removeTree(path + "/" + entry.name, for: operation) }
            guard rmdir(path) == 0 else { throw StorageError(operation, path: path) }
        } else {
            guard unlink(path) == 0 else { throw StorageError(operation, path: path) }
        }
    }
}
