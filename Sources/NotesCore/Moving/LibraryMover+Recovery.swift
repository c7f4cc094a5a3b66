import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension LibraryMover {
    public enum RecoveryOutcome: Equatable {
        /// No move was interrupted.
        case nothingToDo
        /// An interrupted move was finished: every note is now at `journal.destination`.
        case finished(MoveJournal)
        /// The destination cannot be reached: the move stays pending (the journal is kept).
        case destinationUnavailable(MoveJournal)
    }

    /// At start: finishes a move that was interrupted at any instant. What each item needs is
    /// read off the disk: only at the source → move it; at both → the same bytes means the
    /// copy is complete and the source goes, different bytes keep both; only at the target →
    /// done. Our half-written temporaries are removed first. Nothing is ever deleted that has
    /// no complete, synced copy.
    public static func finishInterruptedMove(stateFolder: URL) -> RecoveryOutcome {
        let url = MoveJournal.url(in: stateFolder)
        guard let journal = MoveJournal.read(from: url) else { return .nothingToDo }
        let mover = LibraryMover(source: URL(fileURLWithPath: journal.source), destination: URL(fileURLWithPath: journal.destination),
                                 stateFolder: stateFolder)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: journal.destination, isDirectory: &isFolder), isFolder.boolValue else {
            return .destinationUnavailable(journal)
        }
        mover.removeTemporaries(journal)
        try? mover.createFolders(journal)
        let sameFileSystem = device(of: journal.source) == device(of: journal.destination)
        var placed: [MoveJournal.Item] = []
        for item in journal.items {
            let from = mover.source.appendingPathComponent(item.source)
            let to = mover.destination.appendingPathComponent(item.target)
            guard exists(from.path) else { continue }  // done already (or gone before the move)
            if exists(to.path) {
                if mover.sameContent(from, to) { placed.append(item); continue }
                // Something else took the name meanwhile: keep both.
                var taken = Set<String>()
                let other = MoveJournal.Item(source: item.source, target: mover.freeName(for: item.target, taken: &taken), isSymlink: item.isSymlink)
                if mover.place(other, sameFileSystem: sameFileSystem) { placed.append(other) }
            } else if mover.place(item, sameFileSystem: sameFileSystem) {
                placed.append(item)
            }
        }
        syncFileSystem(of: journal.destination)
        for item in placed {
            let from = mover.source.appendingPathComponent(item.source)
            if mover.sameContent(from, mover.destination.appendingPathComponent(item.target)) { unlink(from.path) }
        }
        mover.removeEmptyFolders(journal)
        AtomicFileWriter.syncFolder(journal.source)
        try? FileManager.default.removeItem(at: url)
        return .finished(journal)
    }

    /// Puts one item at its target (link on the same file system, verified copy otherwise).
    func place(_ item: MoveJournal.Item, sameFileSystem: Bool) -> Bool {
        let to = destination.appendingPathComponent(item.target)
        if sameFileSystem {
            return (try? linkIntoPlace(source.appendingPathComponent(item.source), to)) != nil
        }
        guard let copy = try? copyToTemporary(item) else { return false }
        defer { unlink(copy.temporary.path) }
        LibraryMover.syncFileSystem(of: destination.path)
        guard (try? verify(copy, of: item)) != nil else { return false }
        return (try? linkIntoPlace(copy.temporary, to)) != nil
    }

    /// Same bytes (or, for symlinks, the same link target).
    func sameContent(_ a: URL, _ b: URL) -> Bool {
        var infoA = stat(), infoB = stat()
        guard lstat(a.path, &infoA) == 0, lstat(b.path, &infoB) == 0 else { return false }
        if infoA.st_dev == infoB.st_dev && infoA.st_ino == infoB.st_ino { return true }  // linked, not yet unlinked
        if (infoA.st_mode & S_IFMT) == S_IFLNK || (infoB.st_mode & S_IFMT) == S_IFLNK {
            return (try? FileManager.default.destinationOfSymbolicLink(atPath: a.path))
                == (try? FileManager.default.destinationOfSymbolicLink(atPath: b.path))
        }
        guard infoA.st_size == infoB.st_size, let dataA = RegularFile.contents(of: a, followLinks: false), let dataB = RegularFile.contents(of: b, followLinks: false) else { return false }
        return dataA == dataB
    }

    /// Removes this move's half-written temporaries from the destination's folders.
    func removeTemporaries(_ journal: MoveJournal) {
        for folder in [""] + journal.folders {
            let url = folder.isEmpty ? destination : destination.appendingPathComponent(folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] where name.contains(LibraryMover.temporaryMarker) {
                unlink(url.appendingPathComponent(name).path)
            }
        }
    }
}
