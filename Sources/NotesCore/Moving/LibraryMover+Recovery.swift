import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension LibraryMover {
    public enum RecoveryOutcome: Equatable, Sendable {
        /// No move was interrupted.
        case nothingToDo
        /// An interrupted move was finished: every note is now at `journal.destination`.
        case finished(MoveJournal)
        /// The destination cannot be reached: the move stays pending (the journal is kept).
        case destinationUnavailable(MoveJournal)
        /// The journal was damaged (set aside at `aside`): nothing was moved by it.
        case damagedJournal(aside: String)
    }

    /// At start: finishes a move that was interrupted at any instant. What each item needs is
    /// read off the disk: only at the source → move it; at both → the same bytes means the
    /// copy is complete and the source goes, different bytes keep both; only at the target →
    /// done. Our half-written temporaries are removed first. Nothing is ever deleted that has
    /// no complete, synced copy.
    /// Renamed items arrive under the journal's names, the pins the journal carries are
    /// written, and `history` follows the notes, as at the end of `run`.
    /// `progress(destination, done, total)` is called (on this thread) before the first note and
    /// after each, for a window that shows how far it got.
    public static func finishInterruptedMove(stateFolder: URL, history: NoteHistory? = nil,
                                             progress: ((String, Int, Int) -> Void)? = nil) -> RecoveryOutcome {
        let url = MoveJournal.url(in: stateFolder)
        let journal: MoveJournal
        switch MoveJournal.read(from: url) {
        case .none: return .nothingToDo
        case .damaged(let aside): return .damagedJournal(aside: aside)
        case .journal(let read): journal = read
        }
        let mover = LibraryMover(source: URL(fileURLWithPath: journal.source), destination: URL(fileURLWithPath: journal.destination),
                                 stateFolder: stateFolder, history: history)
        guard FileSystem.isFolder(LibraryMover.realPath(journal.destination)) else {
            return .destinationUnavailable(journal)
        }
        mover.removeTemporaries(journal)
        mover.settleAsides(journal)
        try? mover.createFolders(journal)
        let sameFileSystem = device(of: journal.source) == device(of: journal.destination)
        // As in `run`: notes across file systems are copied to temporaries first, synced once,
        // then verified and linked (or renamed) into place (a sync per note ran at ~400 notes a second).
        var placed: [MoveJournal.Item] = []
        var done: [MoveJournal.Item] = []  // at the destination, by the name they have there
        var toCopy: [MoveJournal.Item] = []
        // Progress in `total` steps over the phases: look at each item (and link it on the same
        // file system), copy, verify and link, remove the sources.
        let total = journal.items.count
        let phases = sameFileSystem ? 2 : 4
        let report = { (phase: Int, step: Int, steps: Int) in
            progress?(journal.destination, total * (phase * max(steps, 1) + step) / (phases * max(steps, 1)), total)
        }
        report(0, 0, 1)
        for (index, item) in journal.items.enumerated() {
            defer { report(0, index + 1, total) }
            let from = mover.source.appendingPathComponent(item.source)
            var target = item
            guard exists(from.path) else { done.append(item); continue }  // done already (or gone before the move)
            if exists(mover.destination.appendingPathComponent(item.target).path) {
                if mover.sameContent(from, mover.destination.appendingPathComponent(item.target)) { placed.append(item); continue }
                // Something else took the name meanwhile: keep both.
                var taken = Set<String>()
                target = MoveJournal.Item(source: item.source, target: mover.freeName(for: item.target, taken: &taken), isSymlink: item.isSymlink)
            }
            if !sameFileSystem {
                toCopy.append(target)
            } else if (try? mover.placeWithoutReplacing(from, mover.destination.appendingPathComponent(target.target))) != nil {
                placed.append(target)
            }
        }
        if !toCopy.isEmpty {
            let copies = toCopy.enumerated().compactMap { offset, item in
                defer { report(1, offset + 1, toCopy.count) }
                return (try? mover.copyToTemporary(item)).map { (item, $0) }
            }
            syncFileSystem(of: journal.destination)
            for (offset, (item, copy)) in copies.enumerated() {
                if (try? mover.verify(copy, of: item)) != nil,
                   let placement = try? mover.placeWithoutReplacing(copy.temporary, mover.destination.appendingPathComponent(item.target)) {
                    placed.append(item)
                    if placement == .linked { unlink(copy.temporary.path) }
                } else {
                    unlink(copy.temporary.path)
                }
                report(2, offset + 1, copies.count)
            }
        }
        syncFileSystem(of: journal.destination)
        for (offset, item) in placed.enumerated() {
            let from = mover.source.appendingPathComponent(item.source)
            mover.removeIfCopied(from, placedAt: mover.destination.appendingPathComponent(item.target))
            report(phases - 1, offset + 1, placed.count)
        }
        report(phases, 0, 1)
        mover.finish(journal, placed: done + placed)
        return .finished(journal)
    }

    /// Removes `leftover` when it holds what is at `placed` — only the very file compared: one
    /// another program wrote or put there since the look stays (`AtomicFileWriter.remove`).
    @discardableResult
    func removeIfCopied(_ leftover: URL, placedAt placed: URL) -> Bool {
        var info = stat()
        guard lstat(leftover.path, &info) == 0, sameContent(leftover, placed) else { return false }
        return (try? AtomicFileWriter.remove(leftover, expecting: FileIdentity(info, hash: 0))) == .removed
    }

    /// Same bytes (or, for symlinks, the same link target).
    func sameContent(_ a: URL, _ b: URL) -> Bool {
        var infoA = stat(), infoB = stat()
        guard lstat(a.path, &infoA) == 0, lstat(b.path, &infoB) == 0 else { return false }
        if infoA.st_dev == infoB.st_dev && infoA.st_ino == infoB.st_ino { return true }  // linked, not yet unlinked
        if (infoA.st_mode & S_IFMT) == S_IFLNK || (infoB.st_mode & S_IFMT) == S_IFLNK {
            return readLink(a.path) == readLink(b.path)
        }
        guard infoA.st_size == infoB.st_size, let dataA = RegularFile.contents(of: a, followLinks: false), let dataB = RegularFile.contents(of: b, followLinks: false) else { return false }
        return dataA == dataB
    }

    /// Removes this move's half-written temporaries from the destination's folders, and the
    /// pins file's (its write is the only other one of a move; nothing else writes there yet).
    func removeTemporaries(_ journal: MoveJournal) {
        if journal.pins != nil { AtomicFileWriter.removeLeftovers(in: destination.appendingPathComponent(".notula"), olderThan: 0) }
        for folder in [""] + journal.destinationFolders {
            let url = folder.isEmpty ? destination : destination.appendingPathComponent(folder)
            for name in (try? FolderEntries.read(url.path).map(\.name)) ?? [] where name.contains(LibraryMover.temporaryMarker) {
                unlink(url.appendingPathComponent(name).path)
            }
        }
    }
}
