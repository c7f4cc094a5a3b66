import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A note the mover put at the destination, with what it saw of the file on the way: enough for
/// the library index to carry the note's row over (`IndexCarryOver`) without reading it again —
/// but only where nothing it saw says the note changed.
public struct MovedNote: Sendable, Equatable {
    /// Paths relative to the source and the destination folder.
    public let source: String
    public let target: String
    /// The source file as it was read (or linked): its identity before and after, or nil when
    /// the two differ (the note changed while it moved).
    let before: LibraryIndex.Identity?
    /// The file at the destination right after it was put in place (nil: not looked at).
    let placed: LibraryIndex.Identity?
    /// The destination file is the source's own inode (a link or a rename on one file system).
    let sameFile: Bool

    init(source: String, target: String, before: LibraryIndex.Identity?, placed: LibraryIndex.Identity?, sameFile: Bool) {
        self.source = source
        self.target = target
        self.before = before
        self.placed = placed
        self.sameFile = sameFile
    }

    /// The identity of the file at `path` (not following a link), or nil.
    static func identity(at path: String) -> LibraryIndex.Identity? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return LibraryIndex.Identity(info)
    }

    /// Whether an item of the move is a note the index may have a row for.
    static func isNote(_ item: MoveJournal.Item) -> Bool {
        !item.isSymlink && !item.source.hasPrefix(".") && NoteLibrary.isNoteFileName((item.source as NSString).lastPathComponent)
    }
}
