import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Carries a library's index over a move of all notes (Preferences' "Store notes in"), so the
/// destination is not indexed from scratch (a first start: 100,000 notes took ~95 s).
///
/// Before anything moves, the source's index is copied as last committed (`VACUUM INTO` on a
/// connection of its own: a consistent snapshot while the live index may still write). After
/// the move, the copy becomes the destination's index and its rows follow the notes
/// (`LibraryIndex.carryOver`): new paths (names the destination made differently, names that
/// were taken), and the identities of the files at the destination for notes the mover saw
/// unchanged — so the reconcile at the switch finds them unchanged and reads none. Anything
/// that fails leaves no index for the destination, which is then indexed as before: it is a cache.
/// Blocking: off the main thread.
public final class IndexCarryOver: Sendable {
    public let destination: URL
    let cacheFolder: URL
    /// The copy of the source's index, made before the move.
    let copy: URL
    static let copySuffix = ".carried"

    /// Copies the index of `source`, or nil when it has none or it cannot be copied.
    public init?(source: URL, destination: URL, cacheFolder: URL) {
        self.destination = destination
        self.cacheFolder = cacheFolder
        Self.removeLeftovers(in: cacheFolder)
        let sourceIndex = LibraryIndex.cacheURL(for: source, in: cacheFolder)
        copy = URL(fileURLWithPath: LibraryIndex.cacheURL(for: destination, in: cacheFolder).path + Self.copySuffix)
        guard access(sourceIndex.path, F_OK) == 0 else { return nil }
        // VACUUM INTO writes only into an empty file; made 0600 first, as the index is.
        let descriptor = open(copy.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        close(descriptor)
        do {
            // Read-write, though it only reads: as the last connection it folds back and removes the WAL it may have made.
            let reader = try SQLiteDatabase(path: sourceIndex.path)
            defer { try? reader.close() }
            try reader.prepare("VACUUM INTO ?").run([.text(copy.path)])
        } catch {
            LibraryIndex.log("the library index could not be copied for the move (\(error)); the new folder is indexed again")
            SQLiteStore.removeFiles(of: copy.path)
            return nil
        }
    }

    /// After the move succeeded: the copy becomes the destination's index, its rows following
    /// the notes. Returns what became of the rows, or nil when carrying failed (the destination
    /// is then indexed from the start).
    @discardableResult
    public func finish(_ moved: [MovedNote]) -> LibraryIndex.Carried? {
        let url = LibraryIndex.cacheURL(for: destination, in: cacheFolder)
        SQLiteStore.removeFiles(of: url.path)  // an index the destination had from an earlier time
        guard rename(copy.path, url.path) == 0 else {
            discard()
            return nil
        }
        do {
            let index = try LibraryIndex(library: NoteLibrary(folder: destination), cacheFolder: cacheFolder)
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
