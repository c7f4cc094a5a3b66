import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Changes to a library file made from what is in it now, for writers that are not the note's
/// document (link updates and their Undo, link retargeting, rebasing, tags): each is a
/// `replace` that expects what was read, so a version another program wrote after the read is
/// never overwritten — the change is made again to that version instead.
extension AtomicFileWriter {
    /// What `edit` did.
    public enum Edit: Sendable {
        /// `before` (what was there) became `after`.
        case written(before: Data, after: Data, FileIdentity)
        /// The change had nothing to do in what is there (it may be another program's version).
        case unchanged
        /// Nothing is at the path any more.
        case missing
    }

    /// How often `edit` makes its change again to a file that keeps changing under it before it
    /// gives up (EAGAIN: nothing was written; the other program's version stays).
    static let editAttempts = 8

    /// Rewrites the file at `url` to what `change` makes of its bytes (nil: nothing to change).
    /// When another program wrote the file between the read and the write, its version stays
    /// in place (`replace` puts it back in the same step) and `change` is asked again about
    /// that version. The mode is kept; the modification time is the write's (never set back:
    /// backups and `rsync` compare it).
    public static func edit(_ url: URL, _ change: (Data) throws -> Data?) throws -> Edit {
        var (data, identity) = try FileIdentity.read(url)
        for _ in 0..<editAttempts {
            guard let after = try change(data) else { return .unchanged }
            switch try replace(after, at: url, expecting: identity) {
            case .written(let written): return .written(before: data, after: after, written)
            case .missing: return .missing
            case .foundOther(let other, let otherIdentity): (data, identity) = (other, otherIdentity)
            }
        }
        throw StorageError(.write, path: url.path, code: EAGAIN)
    }

    /// What `remove` did.
    public enum Removal: Sendable, Equatable {
        case removed
        /// Nothing was at the path.
        case missing
        /// Another version than the expected one was there: it stays, under its name.
        case foundOther
    }

    /// Removes the file at `url` only if it is still `expected` (device, inode, size, mtime):
    /// it is first renamed to a private name (one step: nobody can write it under its own name
    /// any more), then compared. Another program's version is put back under its name — or,
    /// when yet another file took the name meanwhile, beside it as "NAME (another version)".
    public static func remove(_ url: URL, expecting expected: FileIdentity) throws -> Removal {
        let path = url.path
        let folder = url.deletingLastPathComponent().path
        // Not a temporary's name: a stop right here must not let a cleanup delete another
        // program's version (it stays hidden beside, found by hand at worst).
        let aside = folder + "/.notula-removing-" + String(UInt64.random(in: 0 ... .max), radix: 36)
        guard rename(path, aside) == 0 else {
            if errno == ENOENT { return .missing }
            throw StorageError(.remove, path: path)
        }
        var info = stat()
        if lstat(aside, &info) == 0, FileIdentity(info, hash: 0).hasSameMetadata(as: expected) {
            guard unlink(aside) == 0 else { throw StorageError(.remove, path: path) }
            syncFolder(folder)
            return .removed
        }
        if renameWithoutReplacing(aside, path) != 0 { try FileSystem.keepBeside(aside, of: url, for: .remove) }
        syncFolder(folder)
        return .foundOther
    }
}
