import Foundation

/// A failed file operation, with the errno, what was being done and to which path,
/// so the user can be told which note failed and why. The path is that of what failed: the
/// file read (`read`), the folder that could not be opened or listed (`listFolder`), the file
/// a change was made for (writing, creating, replacing, removing — changes to its folder).
public struct StorageError: Error, Equatable, CustomStringConvertible {
    /// The raw values are plain English for logs; messages use `description`'s whole sentences.
    public enum Operation: String, Sendable {
        case createFolder = "create the folder"
        case listFolder = "list the folder"
        case create = "create the note"
        case read = "read the note"
        case write = "save the note"
        case sync = "flush the note to disk"
        case rename = "replace the note"
        case remove = "remove the file"
        case trash = "move the note to the Trash"
        case restore = "restore the note from the Trash"
        case emptyTrash = "delete the note for good"
    }

    public let operation: Operation
    public let path: String
    /// POSIX errno (ENOSPC, EACCES, …), or 0 when `reason` says what went wrong.
    public let code: Int32
    public let reason: String?
    /// What the path is when it is not a regular file (`S_IFIFO`, `S_IFDIR`, …): trying
    /// again cannot help, so no message offers it.
    public internal(set) var notAFile: mode_t?

    public init(_ operation: Operation, path: String, code: Int32 = errno, reason: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.reason = reason
    }

    /// The error for a `path` that could not be looked up or opened (lstat, stat, opendir,
    /// open) with `code`. Permission denied by a folder on the way (one the user may not
    /// search) names that folder, as a folder that could not be opened: the file itself, or
    /// the folder it is in, were never asked, and saying they were sends the user to the
    /// wrong place.
    public static func lookingUp(_ operation: Operation, path: String, code: Int32 = errno) -> StorageError {
        if code == EACCES, let folder = folderDenyingSearch(on: path) {
            return StorageError(.listFolder, path: folder, code: code)
        }
        return StorageError(operation, path: path, code: code)
    }

    /// The outermost folder on the way to `path` that the effective user may not search (x),
    /// or nil. (`AT_EACCESS`: as the effective user, as every other file call here is.)
    static func folderDenyingSearch(on path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var folder = ""
        for part in path.split(separator: "/").dropLast() {
            folder += "/" + part
            if faccessat(AT_FDCWD, folder, X_OK, AT_EACCESS) != 0 { return folder }
        }
        return nil
    }

    /// "it is a named pipe (FIFO), not a file." for a `notAFile` error, for sentences about a
    /// file that is not a note (a word list, a picture).
    public var notAFileReason: String? {
        switch notAFile {
        case nil: return nil
        // TRANSLATORS: completes a sentence about a file Notula cannot use.
        case S_IFDIR: return tr("it is a folder, not a file.")
        // TRANSLATORS: completes a sentence about a file Notula cannot use.
        case S_IFIFO: return tr("it is a named pipe (FIFO), not a file.")
        // TRANSLATORS: completes a sentence about a file Notula cannot use.
        case S_IFSOCK: return tr("it is a socket, not a file.")
        // TRANSLATORS: completes a sentence about a file Notula cannot use.
        case S_IFCHR, S_IFBLK: return tr("it is a device, not a file.")
        // TRANSLATORS: completes a sentence about a file Notula cannot use.
        case S_IFLNK: return tr("it is a symbolic link, not a file.")
        // TRANSLATORS: completes a sentence about a file Notula cannot use.
        default: return tr("it is not a regular file.")
        }
    }

    /// The system's text for the errno, or the given reason.
    public var explanation: String {
        if let reason { return reason }
        return String(cString: strerror(code))
    }

    public var description: String {
        let name = PathBytes.display((path as NSString).lastPathComponent)
        switch operation {
        // TRANSLATORS: %1$s is a folder name, %2$s the reason (often the system's words).
        case .createFolder: return tr("Could not create the folder “%1$s”: %2$s", name, explanation)
        // TRANSLATORS: %1$s is a folder name, %2$s the reason (often the system's words).
        case .listFolder: return tr("Could not list the folder “%1$s”: %2$s", name, explanation)
        // TRANSLATORS: %1$s is a file name, %2$s the reason (often the system's words).
        case .create: return tr("Could not create the note “%1$s”: %2$s", name, explanation)
        // TRANSLATORS: %1$s is a file name, %2$s the reason (often the system's words).
        case .read: return tr("Could not read the note “%1$s”: %2$s", name, explanation)
        // TRANSLATORS: %1$s is a file name, %2$s the reason (often the system's words).
        case .write: return tr("Could not save the note “%1$s”: %2$s", name, explanation)
        // TRANSLATORS: %1$s is a file name, %2$s the reason (often the system's words).
        case .sync: return tr("Could not flush the note to disk “%1$s”: %2$s", name, explanation)
        // TRANSLATORS: %1$s is a file name, %2$s the reason (often the system's words).
        case .rename: return tr("Could not replace the note “%1$s”: %2$s", name, explanation)
        // TRANSLATORS: %1$s is a file name, %2$s the reason (often the system's words).
        case .remove: return tr("Could not remove the file “%1$s”: %2$s", name, explanation)
        // TRANSLATORS: %1$s is a file name, %2$s the reason (often the system's words).
        case .trash: return tr("Could not move the note to the Trash “%1$s”: %2$s", name, explanation)
        // TRANSLATORS: %1$s is a file name, %2$s the reason (often the system's words).
        case .restore: return tr("Could not restore the note from the Trash “%1$s”: %2$s", name, explanation)
        // TRANSLATORS: %1$s is a file name, %2$s the reason (often the system's words).
        case .emptyTrash: return tr("Could not delete the note for good “%1$s”: %2$s", name, explanation)
        }
    }

    /// The errno behind a Foundation file error.
    static func posixCode(of error: Error, fallback: Int32) -> Int32 {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        if nsError.domain == NSPOSIXErrorDomain { return Int32(nsError.code) }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileWriteNoPermission, .fileReadNoPermission: return EACCES
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        default: return fallback
        }
    }
}
