import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Who a file is right now: inode, size, modification time and a hash of its bytes.
/// Remembered at open and after each save; a different identity on disk means another program
/// (or a sync client) changed the file.
public struct FileIdentity: Equatable, Sendable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modified: timespec
    public let contentHash: UInt64

    public static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
            && a.contentHash == b.contentHash
    }

    public var modificationDate: Date {
        Date(timeIntervalSince1970: TimeInterval(modified.tv_sec) + TimeInterval(modified.tv_nsec) / 1e9)
    }

    /// Same metadata: almost certainly the same bytes, without reading them.
    public func hasSameMetadata(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode && size == other.size
            && modified.tv_sec == other.modified.tv_sec && modified.tv_nsec == other.modified.tv_nsec
    }

    /// Reads the file's bytes and identity together (one open, so they belong to the same
    /// file). Only a regular file is opened (`RegularFile`): a FIFO or device under a note's
    /// name is refused at once instead of blocking the document's queue.
    public static func read(_ url: URL) throws -> (data: Data, identity: FileIdentity) {
        let (data, info) = try RegularFile.read(url)
        return (data, FileIdentity(info, hash: ContentHash.of(data)))
    }

    /// The identity of the file now, without reading it (hash unknown: 0).
    public static func metadata(_ url: URL) -> FileIdentity? {
        if case .found(let identity) = lookUp(url) { return identity }
        return nil
    }

    /// What `stat` says of a path: there, gone, or unknown (and why: no permission to look,
    /// an I/O error). Only "gone" may be reported as deleted.
    public enum Lookup: Sendable {
        case found(FileIdentity)
        /// ENOENT: nothing by that name; the folder exists.
        case missing
        /// Anything else (EACCES, ENOTDIR: the folder was replaced by a file, EIO …).
        case failed(StorageError)
    }

    public static func lookUp(_ url: URL) -> Lookup {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            return errno == ENOENT ? .missing : .failed(StorageError.lookingUp(.read, path: url.path))
        }
        return .found(FileIdentity(info, hash: 0))
    }

    init(_ info: stat, hash: UInt64) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim
        contentHash = hash
    }
}

/// FNV-1a, 64 bit: a fast, stable fingerprint of a note's bytes (not for security).
public enum ContentHash: Sendable {
    public static func of(_ data: Data) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        return hash
    }
}
