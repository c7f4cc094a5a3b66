import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Carries a library's index over a move of all notes (Preferences' "Store notes in"), so the
/// destination is not indexed from scratch (a first start: 100,000 notes took ~95 s).
///
/// As the move starts, the source's index is copied as last committed (`VACUUM INTO` on a
/// connection of its own: a consistent snapshot while the live index may still write), on a
/// queue of its own beside the mover: no row is trusted for being in the copy, only for
/// matching what the mover saw of its file, so the copy may be taken while files move. After
/// the move, the copy becomes the destination's index and its rows follow the notes
/// (`LibraryIndex.carryOver`): new paths (names the destination made differently, names that
/// were taken), and the identities of the files at the destination for notes the mover saw
/// unchanged — so the reconcile at the switch finds them unchanged and reads none. Anything
/// that fails leaves no index for the destination, which is then indexed as before: it is a cache.
/// `finish` and `discard` block (until the copy is made): off the main thread.
public final class IndexCarryOver: Sendable {
    public let destination: URL
    let cacheFolder: URL
    /// The copy of the source's index.
    let copy: URL
    /// The carried index's clock (`LibraryIndex.clock`).
    private let clock: @Sendable () -> Date
    static let copySuffix = ".carried"
    /// Signalled once the copy is made or given up; `isCopied` says which.
    private let copying = DispatchSemaphore(value: 0)
    private let isCopied = Mutex(false)

    /// Starts copying the index of `source` (none, or one that cannot be copied: the
    /// destination will be indexed from the start).
    public init(source: URL, destination: URL, cacheFolder: URL, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
        self.destination = destination
        self.cacheFolder = cacheFolder
        copy = URL(fileURLWithPath: LibraryIndex.cacheURL(for: destination, in: cacheFolder).path + Self.copySuffix)
        let sourceIndex = LibraryIndex.cacheURL(for: source, in: cacheFolder)
        DispatchQueue.global(qos: .utility).async { [self] in
            Self.removeLeftovers(in: cacheFolder)
            let copied = Self.copy(sourceIndex, to: copy)
            isCopied.withLock { $0 = copied }
            copying.signal()
        }
    }

    private static func copy(_ index: URL, to copy: URL) -> Bool {
        guard access(index.path, F_OK) == 0 else { return false }
        // VACUUM INTO writes only into an empty file; made 0600 first, as the index is.
        let descriptor = open(copy.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        do {
            // Read-write, though it only reads: as the last connection it folds back and removes the WAL it may have made.
            let reader = try SQLiteDatabase(path: index.path)
            defer { try? reader.close() }
            try reader.prepare("VACUUM INTO ?").run([.text(copy.path)])
            return true
        } catch {
            LibraryIndex.log("the library index could not be copied for the move (\(error)); the new folder is indexed again")
            SQLiteStore.removeFiles(of: copy.path)
            return false
        }
    }

    /// Waits for the copy; whether there is one.
    private func waitForCopy() -> Bool {
        copying.wait()
        copying.signal()  // for a later call
        return isCopied.withLock { $0 }
    }

    /// After the move succeeded: the copy becomes the destination's index, its rows following
    /// the notes. Returns what became of the rows, or nil when carrying failed (the destination
    /// is then indexed from the start).
    @discardableResult
    public func finish(_ moved: [MovedNote]) -> LibraryIndex.Carried? {
        guard waitForCopy() else { return nil }
        let url = LibraryIndex.cacheURL(for: destination, in: cacheFolder)
        SQLiteStore.removeFiles(of: url.path)  // an index the destination had from an earlier time
        guard rename(copy.path, url.path) == 0 else {
            discard()
            return nil
        }
        do {
            let index = try LibraryIndex(library: NoteLibrary(folder: destination), cacheFolder: cacheFolder, clock: clock)
            defer { index.close() }
            guard index.fileURL != nil else { throw NotOnDisk() }  // the copy could not be used: indexing in memory
            return try index.carryOver(moved)
        } catch {
            LibraryIndex.log("the library index could not be carried over to \(destination.path) (\(error)); it is indexed again")
            SQLiteStore.removeFiles(of: url.path)
            return nil
        }
    }

    private struct NotOnDisk: Error {}

    /// The move failed or was cancelled: the copy goes.
    public func discard() {
        _ = waitForCopy()
        SQLiteStore.removeFiles(of: copy.path)
    }

    /// Copies a crash left behind (one Notula runs per user: none is being made now).
    private static func removeLeftovers(in cacheFolder: URL) {
        guard let names = try? FolderEntries.read(cacheFolder.path).map(\.name) else { return }
        for name in names where name.hasPrefix("index-") && name.hasSuffix(".sqlite" + copySuffix) {
            SQLiteStore.removeFiles(of: cacheFolder.appendingPathComponent(name).path)
        }
    }

    /// Removes the index of `folder` if the folder holds no note any more (every note moved
    /// out of it); a folder that cannot be listed keeps its index. Call it once that index is
    /// closed.
    public static func removeIndex(of folder: URL, cacheFolder: URL) {
        for notebook in [""] + NoteLibrary(folder: folder).notebooks() {
            let path = notebook.isEmpty ? folder.path : folder.appendingPathComponent(notebook).path
            guard let names = try? FolderEntries.read(path).map(\.name), !names.contains(where: NoteLibrary.isNoteFileName) else { return }
        }
        SQLiteStore.removeFiles(of: LibraryIndex.cacheURL(for: folder, in: cacheFolder).path)
    }
}
