import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Moves every note (and notebook, and other file) from one library folder to another as a
/// transaction: preflight, a journal, then per file rename (same file system) or copy → sync →
/// verify → only then remove the source. Sync clients' metadata (.stfolder, .stversions, …)
/// stays where it is. Symlinks are moved as links and never followed. Files are linked into
/// place (never renamed over an existing file), so nothing at the destination is overwritten.
/// If the process stops at any instant, `LibraryMover.finishInterruptedMove` completes it.
/// Blocking: run it off the main thread.
public final class LibraryMover: Sendable {
    public struct Preflight: Sendable {
        public let journal: MoveJournal
        /// Items whose name was taken at the destination: they arrive as "name (2).md".
        public let collisions: [MoveJournal.Item]
        public let bytes: Int64
        public let sameFileSystem: Bool
        public var noteCount: Int { journal.items.filter { NoteLibrary.isNoteFileName(($0.source as NSString).lastPathComponent) }.count }
    }

    public let source: URL
    public let destination: URL
    public let journalURL: URL
    static let temporaryMarker = ".notula-move-"

    /// Told where each note went, so its history follows it.
    let history: NoteHistory?

    public init(source: URL, destination: URL, stateFolder: URL, history: NoteHistory? = nil) {
        self.source = source.standardizedFileURL
        self.destination = destination.standardizedFileURL
        journalURL = MoveJournal.url(in: stateFolder)
        self.history = history
    }

    /// Sync clients' own files: they belong to the synced folder, not to the notes.
    public static func isSyncMetadata(_ name: String) -> Bool {
        let exact: Set<String> = [".stfolder", ".stversions", ".stignore", ".stglobalignore", ".sync", ".dropbox", ".dropbox.cache",
                                  ".dropbox.attr", ".nextcloudsync.log", ".owncloudsync.log", ".sync-exclude.lst"]
        return exact.contains(name) || name.hasPrefix("._sync_") || name.hasPrefix(".sync_") || name.hasPrefix(".syncthing.")
            || name.hasPrefix("~syncthing~") || name.contains(AtomicFileWriter.temporaryMarker) || name.contains(temporaryMarker)
    }

    // MARK: Preflight

    /// Checks everything that can be checked before a file moves, and plans the move.
    public func preflight() throws -> Preflight {
        for folder in [source, destination] {
            if let problem = LibraryFolderCheck.problem(with: folder.path) {
                throw MoveError.failed(StorageError(.listFolder, path: folder.path, code: EINVAL, reason: problem))
            }
        }
        let sourcePath = Self.realPath(source.path)
        let destinationPath = Self.realPath(destination.path)
        if Self.isInside(destinationPath, sourcePath) || Self.isInside(sourcePath, destinationPath) {
            throw MoveError.nested(source: source.path, destination: destination.path)
        }
        try prepareDestination()
        var items: [MoveJournal.Item] = []
        var folders: [String] = []
        var bytes: Int64 = 0
        var taken = Set<String>()
        var collisions: [MoveJournal.Item] = []
        func walk(_ relative: String) throws {
            let folder = relative.isEmpty ? source : source.appendingPathComponent(relative)
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() } catch {
                throw MoveError.failed(StorageError(.listFolder, path: folder.path, code: StorageError.posixCode(of: error, fallback: EIO)))
            }
            for name in names where !Self.isSyncMetadata(name) {
                let path = relative.isEmpty ? name : "\(relative)/\(name)"
                var info = stat()
                guard lstat(source.appendingPathComponent(path).path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    folders.append(path)
                    try walk(path)
                case S_IFREG, S_IFLNK:
                    let target = freeName(for: path, taken: &taken)
                    let item = MoveJournal.Item(source: path, target: target, isSymlink: (info.st_mode & S_IFMT) == S_IFLNK)
                    if target != path { collisions.append(item) }
                    items.append(item)
                    bytes += (Int64(info.st_size) + 4095) / 4096 * 4096  // whole blocks, as the disk counts them
                default:
                    continue  // sockets, devices: not notes
                }
            }
        }
        try walk("")
        let same = Self.device(of: source.path) == Self.device(of: destination.path)
        if !same {
            let available = Self.freeBytes(at: destination.path)
            let needed = bytes + Int64(folders.count) * 4096 + 65_536
            if available < needed { throw MoveError.notEnoughSpace(path: destination.path, needed: needed, available: available) }
        }
        let journal = MoveJournal(source: source.path, destination: destination.path, items: items, folders: folders, started: Date())
        return Preflight(journal: journal, collisions: collisions, bytes: bytes, sameFileSystem: same)
    }

    /// The destination exists (created 0700 if its parent does) and can be written.
    private func prepareDestination() throws {
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: destination.path, isDirectory: &isFolder) {
            guard mkdir(destination.path, 0o700) == 0 else { throw MoveError.destinationUnavailable(path: destination.path, code: errno) }
        } else if !isFolder.boolValue {
            throw MoveError.destinationUnavailable(path: destination.path, code: ENOTDIR)
        }
        var probe = Array("\(destination.path)/.notula-probe-XXXXXX".utf8CString)
        let fd = probe.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw MoveError.destinationUnavailable(path: destination.path, code: errno) }
        close(fd)
        probe.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    }

    /// `path`, or "name (2).ext", "name (3).ext", … if the destination or another item has it.
    func freeName(for path: String, taken: inout Set<String>) -> String {
        var candidate = path
        var number = 2
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension
        let stem = ext.isEmpty ? name : (name as NSString).deletingPathExtension
        while taken.contains(candidate) || Self.exists(destination.appendingPathComponent(candidate).path) {
            let numbered = ext.isEmpty ? "\(stem) (\(number))" : "\(stem) (\(number)).\(ext)"
            candidate = folder.isEmpty ? numbered : "\(folder)/\(numbered)"
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }

    // MARK: Running

    /// Moves everything in the plan. `progress(done, total)` runs on this thread;
    /// `isCancelled` is asked between files until the sources start being removed (after
    /// that the move finishes: every file is already safe at the destination).
    public func run(_ plan: Preflight, progress: ((Int, Int) -> Void)? = nil, isCancelled: (() -> Bool)? = nil) throws {
        let journal = plan.journal
        do { try journal.write(to: journalURL) } catch {
            throw MoveError.failed(error as? StorageError ?? StorageError(.write, path: journalURL.path, code: EIO))
        }
        try createFolders(journal)
        let total = journal.items.count
        if plan.sameFileSystem {
            for (index, item) in journal.items.enumerated() {
                if isCancelled?() == true { rollBack(journal, upTo: index); throw MoveError.cancelled }
                do { try linkIntoPlace(source.appendingPathComponent(item.source), destination.appendingPathComponent(item.target)) } catch {
                    rollBack(journal, upTo: index)
                    throw error
                }
                unlink(source.appendingPathComponent(item.source).path)
                progress?(index + 1, total)
            }
        } else {
            var copied: [(MoveJournal.Item, Copy)] = []
            for item in journal.items {
                if isCancelled?() == true { discard(copied.map(\.1.temporary)); rollBack(journal, upTo: 0); throw MoveError.cancelled }
                do {
                    copied.append((item, try copyToTemporary(item)))
                } catch {
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
                    try linkIntoPlace(copy.temporary, destination.appendingPathComponent(item.target))
                    unlink(copy.temporary.path)
                } catch {
                    discard(copied.dropFirst(offset).map(\.1.temporary))
                    rollBack(journal, upTo: offset)
                    throw error
                }
            }
            Self.syncFileSystem(of: destination.path)
            for (index, item) in journal.items.enumerated() {
                unlink(source.appendingPathComponent(item.source).path)
                progress?(total / 2 + (index + 1) / 2, total)
            }
        }
        removeEmptyFolders(journal)
        AtomicFileWriter.syncFolder(source.path)
        if let history {
            let from = source.path, to = destination.path  // standardized in init
            history.moved(paths: journal.items.map { (from + "/" + $0.source, to + "/" + $0.target) })
        }
        try? FileManager.default.removeItem(at: journalURL)
        progress?(total, total)
    }

    func createFolders(_ journal: MoveJournal) throws {
        for folder in journal.folders {
            let path = destination.appendingPathComponent(folder).path
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw MoveError.failed(StorageError(.createFolder, path: path))
            }
        }
    }

    /// Puts `from` at `to` without ever replacing a file at `to` (link, not rename).
    func linkIntoPlace(_ from: URL, _ to: URL) throws {
        guard link(from.path, to.path) == 0 else { throw MoveError.failed(StorageError(.rename, path: to.path)) }
    }

    /// A copy under a temporary name next to its target, and what its bytes must be.
    struct Copy {
        let temporary: URL
        let size: Int
        let hash: UInt64
    }

    /// Copies one item next to its target under a temporary name, with its mode and times
    /// (one read of the source: its bytes, identity and hash come together).
    func copyToTemporary(_ item: MoveJournal.Item) throws -> Copy {
        let from = source.appendingPathComponent(item.source)
        let target = destination.appendingPathComponent(item.target)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent("\(Self.temporaryMarker)\(UUID().uuidString.prefix(12))")  // short: the name may be 255 bytes
        if item.isSymlink {
            let linkTarget = try FileManager.default.destinationOfSymbolicLink(atPath: from.path)
            guard symlink(linkTarget, temporary.path) == 0 else { throw MoveError.failed(StorageError(.write, path: target.path)) }
            return Copy(temporary: temporary, size: 0, hash: 0)
        }
        let original: (data: Data, identity: FileIdentity)
        var info = stat()
        do {
            original = try FileIdentity.read(from)
            lstat(from.path, &info)
        } catch {
            throw MoveError.failed(error as? StorageError ?? StorageError(.read, path: from.path, code: EIO))
        }
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw MoveError.failed(StorageError(.write, path: target.path)) }
        defer { close(fd) }
        let data = original.data
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == data.count else {
            let code = written < 0 ? errno : ENOSPC
            unlink(temporary.path)
            throw MoveError.failed(StorageError(.write, path: target.path, code: code))
        }
        fchmod(fd, info.st_mode & 0o7777)
        var times = [info.st_atim, info.st_mtim]
        futimens(fd, &times)
        return Copy(temporary: temporary, size: data.count, hash: original.identity.contentHash)
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

    private func discard(_ temporaries: [URL]) {
        for url in temporaries { unlink(url.path) }
    }

    /// Puts back what moved (first `count` items of a same-system move), removes what was copied.
    func rollBack(_ journal: MoveJournal, upTo count: Int) {
        for item in journal.items.prefix(count) {
            let from = source.appendingPathComponent(item.source)
            let to = destination.appendingPathComponent(item.target)
            if Self.exists(from.path) {
                if Self.exists(to.path) { unlink(to.path) }
            } else if link(to.path, from.path) == 0 {
                unlink(to.path)
            }
        }
        for folder in journal.folders.reversed() { rmdir(destination.appendingPathComponent(folder).path) }
        try? FileManager.default.removeItem(at: journalURL)
    }

    /// Removes the source's folders that the move emptied (not ones holding sync metadata).
    func removeEmptyFolders(_ journal: MoveJournal) {
        for folder in journal.folders.reversed() { rmdir(source.appendingPathComponent(folder).path) }
    }

    // MARK: File-system facts

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func realPath(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
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

    static func freeBytes(at path: String) -> Int64 {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return 0 }
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
