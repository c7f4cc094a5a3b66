import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Opens and reads only regular files. Another program can leave anything under a note's
/// name: a FIFO (whose `open` blocks until a writer comes), a socket, a device, a folder, a
/// symbolic link out of the library. Each is refused before it is opened (`lstat` first), and
/// the open itself is non-blocking and checked again with `fstat`, so a file swapped in
/// between cannot stall the caller either.
public enum RegularFile: Sendable {
    /// Why a path is not a regular file, as a whole sentence for messages.
    static func notRegularReason(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return tr("It is a folder, not a note file, so Notula does not open it.")
        case S_IFIFO: return tr("It is a FIFO (named pipe), not a note file, so Notula does not open it.")
        case S_IFSOCK: return tr("It is a socket, not a note file, so Notula does not open it.")
        case S_IFCHR, S_IFBLK: return tr("It is a device, not a note file, so Notula does not open it.")
        case S_IFLNK: return tr("It is a symbolic link, not a note file, so Notula does not open it.")
        default: return tr("It is not a regular file, not a note file, so Notula does not open it.")
        }
    }

    /// The error for a path that is there but is not a regular file.
    static func notRegular(_ path: String, mode: mode_t) -> StorageError {
        let code = (mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL
        var error = StorageError(.read, path: path, code: code, reason: notRegularReason(mode))
        error.notAFile = mode & S_IFMT
        return error
    }

    /// Whether `path` is a regular file (by `lstat`: a symbolic link is not).
    public static func isRegular(_ path: String) -> Bool {
        var info = stat()
        return PathBytes.withCString(path, { lstat($0, &info) }) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Makes `path` an empty file (mode 0644) unless something is there already, as an editor
    /// does for a file named on its command line; false when it can be neither found nor made.
    public static func createEmptyIfMissing(_ path: String) -> Bool {
        let descriptor = NotesCore.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor >= 0 {
            Glibc.close(descriptor)
            return true
        }
        return errno == EEXIST
    }

    /// Opens `path` for reading. `followLinks`: configuration files may be symbolic links
    /// (dotfile managers make them); notes in the library are never followed.
    public static func openForReading(_ path: String, followLinks: Bool = false) throws -> (fd: Int32, info: stat) {
        var info = stat()
        let looked = followLinks ? stat(path, &info) : lstat(path, &info)
        guard looked == 0 else { throw StorageError.lookingUp(.read, path: path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw notRegular(path, mode: info.st_mode) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followLinks ? 0 : O_NOFOLLOW))
        // Looked up above, so EACCES here is the file's own permission.
        guard fd >= 0 else { throw StorageError(.read, path: path) }
        guard fstat(fd, &info) == 0 else {
            let error = StorageError(.read, path: path)
            close(fd)
            throw error
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw notRegular(path, mode: info.st_mode)
        }
        return (fd, info)
    }

    /// The whole file, with its `stat` from the same open. A file larger than `maximumBytes`
    /// (a picture: 500 MB dropped in the library) is refused unread, with EFBIG, and so is one
    /// that grows past it while it is read.
    public static func read(_ url: URL, followLinks: Bool = false, maximumBytes: Int = .max) throws -> (data: Data, info: stat) {
        let (fd, info) = try openForReading(url.path, followLinks: followLinks)
        defer { close(fd) }
        guard Int(info.st_size) <= maximumBytes else { throw StorageError(.read, path: url.path, code: EFBIG) }
        var data = Data(count: Int(info.st_size))
        var total = 0
        while true {
            if total == data.count {
                guard total < maximumBytes else { throw StorageError(.read, path: url.path, code: EFBIG) }
                data.count += min(max(4096, data.count / 2), maximumBytes - total)
            }
            let count = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + total, $0.count - total) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StorageError(.read, path: url.path)
            }
            if count == 0 { break }
            total += count
        }
        data.count = total
        return (data, info)
    }

    /// Most a state or configuration file is read: larger is no file Notula wrote.
    public static let maximumStateBytes = 256 << 20

    /// The file's bytes, or nil when it is missing, unreadable, larger than
    /// `maximumStateBytes` or not a regular file (state and configuration files, which have
    /// defaults).
    public static func contents(of url: URL, followLinks: Bool = true) -> Data? {
        try? read(url, followLinks: followLinks, maximumBytes: maximumStateBytes).data
    }

    /// At most the first `count` bytes (the list's title and preview).
    public static func prefix(_ url: URL, count: Int) throws -> (bytes: [UInt8], info: stat) {
        let (fd, info) = try openForReading(url.path)
        defer { close(fd) }
        // Sized by the file, not by `count` (the index asks for up to 8 MB of every note); it
        // grows if the file does while it is read.
        var buffer = [UInt8](repeating: 0, count: min(count, max(Int(info.st_size), 0) + 1))
        var total = 0
        while total < count {
            if total == buffer.count { buffer += [UInt8](repeating: 0, count: min(buffer.count, count - buffer.count)) }
            let room = buffer.count - total
            let read = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + total, room) }
            if read < 0 {
                if errno == EINTR { continue }
                throw StorageError(.read, path: url.path)
            }
            if read == 0 { break }
            total += read
        }
        return (Array(buffer[0..<total]), info)
    }
}
