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
        let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        var candidate = name
        var attempt = 2
        while exists(folder + "/" + candidate) {
            candidate = FileNameLength.fit(base, " \(attempt)" + (ext.isEmpty ? "" : ".\(ext)"))
            attempt += 1
        }
        return candidate
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
