import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Moves every note (and notebook, and other file) from one library folder to another as a
/// transaction: preflight, a journal, then per file rename (same file system) or copy → sync →
/// verify → only then remove the source. Sync clients' metadata (.stfolder, .stversions, …)
/// stays where it is. Symlinks are moved as links and never followed. Files are linked into
/// place, or renamed there where the destination has no hard links (FAT, exFAT), never over
/// an existing file, so nothing at the destination is overwritten. What the destination
/// cannot hold is found out first, by trying it there (`DestinationTraits`): names it refuses,
/// names that differ only in case where it does not tell case apart, names past its length
/// limit, and names it already has are planned as other names (`DestinationNames`), each
/// listed for the user, and pins and the notes' history follow them.
/// If the process stops at any instant, `LibraryMover.finishInterruptedMove` completes it.
/// Blocking: run it off the main thread.
public final class LibraryMover: Sendable {
    public struct Preflight: Sendable {
        public let journal: MoveJournal
        /// Every note, file or notebook that arrives under another name, and why.
        public let renames: [MoveRename]
        public let bytes: Int64
        public let sameFileSystem: Bool
        /// What the destination was found to hold.
        public let traits: DestinationTraits
        public var noteCount: Int { journal.items.filter { NoteLibrary.isNoteFileName(($0.source as NSString).lastPathComponent) }.count }
        /// Items whose name was taken at the destination: they arrive as "name (2).md".
        public var collisions: [MoveJournal.Item] {
            let taken = Set(renames.filter { $0.reason == .nameTaken && !$0.isFolder }.map(\.source))
            return journal.items.filter { taken.contains($0.source) }
        }
    }

    public let source: URL
    public let destination: URL
    public let journalURL: URL
    static let temporaryMarker = ".notula-move-"

    /// Told where each note went, so its history follows it.
    let history: NoteHistory?

    /// Tests race another writer here: called just before each source is taken away.
    let beforeRemovingSource: (@Sendable (MoveJournal.Item) -> Void)?

    public convenience init(source: URL, destination: URL, stateFolder: URL, history: NoteHistory? = nil) {
        self.init(source: source, destination: destination, stateFolder: stateFolder, history: history, beforeRemovingSource: nil)
    }

    init(source: URL, destination: URL, stateFolder: URL, history: NoteHistory?, beforeRemovingSource: (@Sendable (MoveJournal.Item) -> Void)?) {
        self.source = source.standardizedFileURL
        self.destination = destination.standardizedFileURL
        journalURL = MoveJournal.url(in: stateFolder)
        self.history = history
        self.beforeRemovingSource = beforeRemovingSource
    }

    /// Sync clients' own files: they belong to the synced folder, not to the notes.
    public static func isSyncMetadata(_ name: String) -> Bool {
        let exact: Set<String> = [".stfolder", ".stversions", ".stignore", ".stglobalignore", ".sync", ".dropbox", ".dropbox.cache",
                                  ".dropbox.attr", ".nextcloudsync.log", ".owncloudsync.log", ".sync-exclude.lst"]
        return exact.contains(name) || name.hasPrefix("._sync_") || name.hasPrefix(".sync_") || name.hasPrefix(".syncthing.")
            || name.hasPrefix("~syncthing~") || name.contains(AtomicFileWriter.temporaryMarker) || name.contains(temporaryMarker)
            || name.hasPrefix(".notula-probe-")
    }

    // MARK: Preflight

    /// Checks everything that can be checked before a file moves, and plans the move.
    public func preflight() throws -> Preflight {
        for (folder, problem) in [(source, LibraryFolderCheck.problem(with: source.path)),
                                  (destination, LibraryFolderCheck.destinationProblem(with: destination.path))] {
            if let problem { throw MoveError.failed(StorageError(.listFolder, path: folder.path, code: EINVAL, reason: problem)) }
        }
        let sourcePath = Self.realPath(source.path)
        let destinationPath = Self.realPath(destination.path)
        if Self.isInside(destinationPath, sourcePath) || Self.isInside(sourcePath, destinationPath) {
            throw MoveError.nested(source: source.path, destination: destination.path)
        }
        let traits = try prepareDestination()
        var names = DestinationNames(traits: traits, destination: destination)
        var items: [MoveJournal.Item] = []
        var folders: [String] = [], folderTargets: [String] = []
        var renames: [MoveRename] = []
        var links: [String] = []
        var bytes: Int64 = 0
        let block = Self.blockSize(at: destination.path)
        // A Trash entry's record ("NAME.trashinfo") follows its note's new name.
        var trashNames: [String: String] = [:]
        func walk(_ relative: String, _ target: String) throws {
            let folder = relative.isEmpty ? source : source.appendingPathComponent(relative)
            let listed: [String]
            do { listed = try FolderEntries.read(folder.path).map(\.name).sorted() } catch {
                throw MoveError.failed(error as? StorageError ?? StorageError(.listFolder, path: folder.path, code: EIO))
            }
            // Names the destination can hold as they are claim them first; renamed ones take what is left.
            let ordered = listed.filter(names.isAllowedAsIs) + listed.filter { !names.isAllowedAsIs($0) }
            for name in ordered where !Self.isSyncMetadata(name) {
                let path = relative.isEmpty ? name : "\(relative)/\(name)"
                var info = stat()
                guard lstat(source.appendingPathComponent(path).path, &info) == 0 else { continue }
                let kind = info.st_mode & S_IFMT
                guard kind == S_IFDIR || kind == S_IFREG || kind == S_IFLNK else { continue }  // sockets, devices: not notes
                var preferred: String?
                if relative == Self.trashRecords, name.hasSuffix(".trashinfo"), let note = trashNames[String(name.dropLast(10))] {
                    preferred = note + ".trashinfo"
                }
                let (newName, reason) = names.name(for: name, in: target, isFolder: kind == S_IFDIR, preferred: preferred)
                let targetPath = target.isEmpty ? newName : "\(target)/\(newName)"
                if relative == Self.trashFiles { trashNames[name] = newName }
                if let reason, relative != Self.trashRecords, path != Self.pinsPath {
                    renames.append(MoveRename(source: path, target: targetPath, isFolder: kind == S_IFDIR, reason: reason))
                }
                if kind == S_IFDIR {
                    folders.append(path)
                    folderTargets.append(targetPath)
                    try walk(path, targetPath)
                } else {
                    items.append(MoveJournal.Item(source: path, target: targetPath, isSymlink: kind == S_IFLNK))
                    if kind == S_IFLNK { links.append(path) }
                    bytes += (Int64(info.st_size) + block - 1) / block * block  // whole blocks, as the disk counts them
                }
            }
        }
        try walk("", "")
        if !traits.canSymlink && !links.isEmpty { throw MoveError.linksRefused(path: destination.path, links: links) }
        let same = Self.device(of: source.path) == Self.device(of: destination.path)
        // A file system that says it has no blocks at all does not know (fusefat on FAT32): a
        // full disk then shows when the copies are written, and the move is rolled back.
        if !same, let available = Self.freeBytes(at: destination.path) {
            let needed = bytes + Int64(folders.count) * block + 65_536
            if available < needed { throw MoveError.notEnoughSpace(path: destination.path, needed: needed, available: available) }
        }
        let journal = MoveJournal(source: source.path, destination: destination.path, items: items, folders: folders,
                                  folderTargets: folderTargets == folders ? nil : folderTargets, started: Date())
        return Preflight(journal: journal, renames: renames, bytes: bytes, sameFileSystem: same, traits: traits)
    }

    static let trashFiles = ".notula/Trash/files"
    static let trashRecords = ".notula/Trash/info"

    /// The destination exists (created 0700 if its parent does) and can be written; what it
    /// can hold, tried there. One that cannot replace files is refused before anything moves.
    private func prepareDestination() throws -> DestinationTraits {
        var info = stat()  // a link to a folder will do
        var made = false
        if stat(destination.path, &info) != 0 {
            guard mkdir(destination.path, 0o700) == 0 else { throw MoveError.destinationUnavailable(path: destination.path, code: errno) }
            made = true
        } else if (info.st_mode & S_IFMT) != S_IFDIR {
            throw MoveError.destinationUnavailable(path: destination.path, code: ENOTDIR)
        }
        /// Refused: the disk is left as it was.
        func refused(_ error: MoveError) -> MoveError {
            if made { rmdir(destination.path) }
            return error
        }
        let traits: DestinationTraits
        do {
            traits = try DestinationTraits.probe(destination)
        } catch {
            throw refused(.destinationUnavailable(path: destination.path, code: error.code))
        }
        guard traits.canReplace else { throw refused(.cannotReplaceFiles(path: destination.path)) }
        return traits
    }

    /// `path`, or "name (2).ext", "name (3).ext", … if the destination or another item has it
    /// (an interrupted move finding its name taken since).
    func freeName(for path: String, taken: inout Set<String>) -> String {
        var candidate = path
        var number = 2
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension
        let stem = ext.isEmpty ? name : (name as NSString).deletingPathExtension
        while taken.contains(candidate) || Self.exists(destination.appendingPathComponent(candidate).path) {
            let numbered = FileNameLength.fit(stem, ext.isEmpty ? " (\(number))" : " (\(number)).\(ext)")
            candidate = folder.isEmpty ? numbered : "\(folder)/\(numbered)"
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }

    // MARK: Running

    /// Moves everything in the plan. `progress(done, total)` runs on this thread;
    /// `isCancelled` is asked between files until the sources start being removed (after
    /// that the move finishes: every file is already safe at the destination). Returns the
    /// notes moved, with what was seen of each on the way (the index carries them over).
    @discardableResult
    public func run(_ plan: Preflight, progress: ((Int, Int) -> Void)? = nil, isCancelled: (() -> Bool)? = nil) throws -> [MovedNote] {
        var moved: [MovedNote] = []
        var journal = plan.journal
        journal.pins = pinsAfterMove(journal)
        do { try journal.write(to: journalURL) } catch {
            throw MoveError.failed(error as? StorageError ?? StorageError(.write, path: journalURL.path, code: EIO))
        }
        try createFolders(journal)
        let total = journal.items.count
        // Sources another program removed after the plan was made: nothing to move, no failure.
        var vanished = Set<String>()
        if plan.sameFileSystem {
            for (index, item) in journal.items.enumerated() {
                if isCancelled?() == true { rollBack(journal, upTo: index); throw MoveError.cancelled }
                let from = source.appendingPathComponent(item.source), to = destination.appendingPathComponent(item.target)
                let before = MovedNote.isNote(item) ? MovedNote.identity(at: from.path) : nil
                do {
                    if try placeWithoutReplacing(from, to) == .linked {
                        var placed = stat()
                        lstat(to.path, &placed)
                        removeSource(item, placed: item.isSymlink ? .link : .sameFile(device: UInt64(placed.st_dev), inode: UInt64(placed.st_ino)))
                    }
                } catch {
                    if !Self.exists(from.path) {
                        vanished.insert(item.source)
                        continue
                    }
                    rollBack(journal, upTo: index)
                    throw error
                }
                if let before {
                    moved.append(MovedNote(source: item.source, target: item.target, before: before,
                                           placed: MovedNote.identity(at: to.path), sameFile: true))
                }
                progress?(index + 1, total)
            }
        } else {
            var copied: [(MoveJournal.Item, Copy)] = []
            var journalIndex: [Int] = []  // each copied item's place in the journal: a roll-back covers all items up to it
            for (index, item) in journal.items.enumerated() {
                if isCancelled?() == true { discard(copied.map(\.1.temporary)); rollBack(journal, upTo: 0); throw MoveError.cancelled }
                do {
                    copied.append((item, try copyToTemporary(item)))
                    journalIndex.append(index)
                } catch {
                    if !Self.exists(source.appendingPathComponent(item.source).path) {
                        vanished.insert(item.source)
                        continue
                    }
                    discard(copied.map(\.1.temporary))
                    rollBack(journal, upTo: 0)
                    throw error
                }
                progress?(copied.count / 2, total)
            }
            Self.syncFileSystem(of: destination.path)
            for (offset, (item, copy)) in copied.enumerated() {
                do {
                    try verify(copy, of: item)
                    let to = destination.appendingPathComponent(item.target)
                    if try placeWithoutReplacing(copy.temporary, to) == .linked {
                        unlink(copy.temporary.path)
                    }
                    if MovedNote.isNote(item) {
                        moved.append(MovedNote(source: item.source, target: item.target, before: copy.source,
                                               placed: MovedNote.identity(at: to.path), sameFile: false))
                    }
                } catch {
                    discard(copied.dropFirst(offset).map(\.1.temporary))
                    rollBack(journal, upTo: journalIndex[offset])
                    throw error
                }
            }
            Self.syncFileSystem(of: destination.path)
            for (index, (item, copy)) in copied.enumerated() {
                removeSource(item, placed: item.isSymlink ? .link : .copy(copy.source, hash: copy.hash, placed: copy.written))
                progress?(total / 2 + (index + 1) / 2, total)
            }
        }
        sweepLeftovers(journal)
        finish(journal, placed: journal.items.filter { !vanished.contains($0.source) })
        progress?(total, total)
        return moved
    }

    /// Every item is at the destination and its source gone: links to renamed entries follow
    /// them, the pins are written there, note languages follow renamed notes, the emptied folders go, the history follows, and the
    /// journal is removed (after the links: a stop before that does them again on recovery).
    func finish(_ journal: MoveJournal, placed: [MoveJournal.Item]) {
        followRenames(journal, placed: placed)
        writePins(journal, placed: placed)
        carryLanguages(placed: placed)
        removeEmptyFolders(journal)
        AtomicFileWriter.syncFolder(source.path)
        if let history {
            let from = source.path, to = destination.path  // standardized in init
            history.moved(paths: placed.map { (from + "/" + $0.source, to + "/" + $0.target) })
        }
        try? FileManager.default.removeItem(at: journalURL)
    }

    // MARK: File-system facts

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func realPath(_ path: String) -> String {
        if let resolved = NotesCore.realPath(path) { return resolved }
        let parent = (path as NSString).deletingLastPathComponent
        return parent == path ? path : (realPath(parent) as NSString).appendingPathComponent((path as NSString).lastPathComponent)
    }

    static func isInside(_ inner: String, _ outer: String) -> Bool {
        inner == outer || inner.hasPrefix(outer.hasSuffix("/") ? outer : outer + "/")
    }

    static func device(of path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_dev) : nil
    }

    /// The unit the destination allocates in (FAT and exFAT clusters may be far larger than 4 KiB).
    static func blockSize(at path: String) -> Int64 {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return 4096 }
        return max(4096, Int64(info.f_bsize))
    }

    /// Free bytes for us, or nil when the file system does not say (no blocks at all).
    static func freeBytes(at path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return 0 }
        guard info.f_blocks > 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Flushes the whole file system holding `path` (one syncfs instead of an fsync per file;
    /// glibc's syncfs is not in Swift's Glibc module, so it is looked up; sync() otherwise).
    static func syncFileSystem(of path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return sync() }
        defer { close(fd) }
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") {
            typealias SyncFS = @convention(c) (Int32) -> Int32
            _ = unsafeBitCast(symbol, to: SyncFS.self)(fd)
        } else {
            sync()
        }
    }
}
