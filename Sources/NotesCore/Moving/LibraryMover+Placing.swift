import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Putting files in place at the destination, and taking them back.
extension LibraryMover {
    func createFolders(_ journal: MoveJournal) throws {
        for folder in journal.destinationFolders {
            let path = destination.appendingPathComponent(folder).path
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw MoveError.failed(StorageError(.createFolder, path: path))
            }
        }
    }

    enum Placement: Equatable {
        /// `from` is at both names: the caller removes the old one when it is done with it.
        case linked
        /// `from` is gone: it is at `to` now.
        case renamed
    }

    /// Puts `from` at `to` without ever replacing what is at `to`: a hard link, or where the
    /// file system has none (FAT, exFAT: EPERM), a rename that refuses an existing name.
    /// Either is one step a crash cannot tear.
    func placeWithoutReplacing(_ from: URL, _ to: URL) throws -> Placement {
        if link(from.path, to.path) == 0 { return .linked }
        let code = errno
        guard code == EPERM || code == EOPNOTSUPP || code == ENOSYS || code == EMLINK else { throw placingFailed(to, code: code) }
        guard Self.renameWithoutReplacing(from.path, to.path) == 0 else { throw placingFailed(to, code: errno) }
        return .renamed
    }

    private func placingFailed(_ to: URL, code: Int32) -> MoveError {
        .couldNotPlace(name: to.lastPathComponent, folder: to.deletingLastPathComponent().path, code: code)
    }

    static func renameWithoutReplacing(_ from: String, _ to: String) -> Int32 {
        NotesCore.renameWithoutReplacing(from, to)
    }

    /// A copy under a temporary name next to its target, and what its bytes must be.
    struct Copy {
        let temporary: URL
        let size: Int
        let hash: UInt64
        /// The source as it was read: its identity when the same before and after the read.
        var source: LibraryIndex.Identity?
        /// The copy as written (a rename or link keeps its inode and times).
        var written: FileIdentity
    }

    /// Copies one item next to its target under a temporary name, with its mode and times where
    /// the destination keeps them (one read of the source: its bytes, identity and hash come together).
    func copyToTemporary(_ item: MoveJournal.Item) throws -> Copy {
        let from = source.appendingPathComponent(item.source)
        let target = destination.appendingPathComponent(item.target)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent("\(Self.temporaryMarker)\(UUID().uuidString.prefix(12))")  // short: the name may be 255 bytes
        if item.isSymlink {
            guard let linkTarget = readLink(from.path) else { throw placingFailed(target, code: errno) }
            guard symlink(linkTarget, temporary.path) == 0 else { throw placingFailed(target, code: errno) }
            var info = stat()
            lstat(temporary.path, &info)
            return Copy(temporary: temporary, size: 0, hash: 0, source: nil, written: FileIdentity(info, hash: 0))
        }
        let original: (data: Data, identity: FileIdentity)
        var info = stat()
        var read = stat()
        do {
            let (data, opened) = try RegularFile.read(from)
            original = (data, FileIdentity(opened, hash: ContentHash.of(data)))
            read = opened
            lstat(from.path, &info)
        } catch {
            throw MoveError.failed(error as? StorageError ?? StorageError(.read, path: from.path, code: EIO))
        }
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw placingFailed(target, code: errno) }
        defer { close(fd) }
        let data = original.data
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == data.count else {
            let code = written < 0 ? errno : ENOSPC
            unlink(temporary.path)
            throw placingFailed(target, code: code)
        }
        fchmod(fd, info.st_mode & 0o7777)  // FAT keeps no modes (ENOSYS, EPERM): the copy is still whole
        var times = [info.st_atim, info.st_mtim]
        futimens(fd, &times)
        var copied = stat()
        fstat(fd, &copied)
        let seen = LibraryIndex.Identity(read)
        return Copy(temporary: temporary, size: data.count, hash: original.identity.contentHash,
                    source: seen == LibraryIndex.Identity(info) && seen.size == Int64(data.count) ? seen : nil,
                    written: FileIdentity(copied, hash: original.identity.contentHash))
    }

    /// The copy, read back after the sync, has the source's size and bytes.
    func verify(_ copy: Copy, of item: MoveJournal.Item) throws {
        if item.isSymlink { return }
        guard let readBack = try? FileIdentity.read(copy.temporary), readBack.data.count == copy.size,
              readBack.identity.contentHash == copy.hash else {
            throw MoveError.failed(StorageError(.write, path: destination.appendingPathComponent(item.target).path, code: EIO,
                                                reason: tr("The copy did not match the original")))
        }
    }

    func discard(_ temporaries: [URL]) {
        for url in temporaries { unlink(url.path) }
    }

    /// Puts back what moved (first `count` items of a same-system move), removes what was copied.
    func rollBack(_ journal: MoveJournal, upTo count: Int) {
        for item in journal.items.prefix(count) {
            let from = source.appendingPathComponent(item.source)
            let to = destination.appendingPathComponent(item.target)
            if Self.exists(from.path) {
                removeIfCopy(to, of: from)
            } else if (try? placeWithoutReplacing(to, from)) == .linked {
                unlink(to.path)
            }
        }
        for folder in journal.destinationFolders.reversed() { rmdir(destination.appendingPathComponent(folder).path) }
        try? FileManager.default.removeItem(at: journalURL)
    }

    /// Removes `copy` only while it is still what was placed for `original` (the same file, or
    /// the same bytes or link): a file a sync client wrote at the destination since is its
    /// own and stays.
    private func removeIfCopy(_ copy: URL, of original: URL) {
        var copied = stat(), source = stat()
        guard lstat(copy.path, &copied) == 0, lstat(original.path, &source) == 0 else { return }
        let same: Bool
        if copied.st_dev == source.st_dev && copied.st_ino == source.st_ino {
            same = true
        } else if (copied.st_mode & S_IFMT) == S_IFLNK {
            let placed = readLink(copy.path)
            same = placed != nil && placed == readLink(original.path)
        } else {
            let placed = (try? FileIdentity.read(copy))?.identity.contentHash
            same = placed != nil && placed == (try? FileIdentity.read(original))?.identity.contentHash
        }
        if same { _ = try? AtomicFileWriter.remove(copy, expecting: FileIdentity(copied, hash: 0)) }
    }

    /// Removes the source's folders that the move emptied (not ones holding sync metadata).
    func removeEmptyFolders(_ journal: MoveJournal) {
        for folder in journal.folders.reversed() { rmdir(source.appendingPathComponent(folder).path) }
    }
}
