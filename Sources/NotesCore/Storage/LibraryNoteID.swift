import Foundation

/// The one check every way into the library passes before a note opens as a library note —
/// the desktop search's ids, session restore, links, `notula FILE`, a notice's Open Note: the
/// id must have a note id's form (relative, no `..`, nothing hidden such as `.notula/`, a note
/// file name), and its file must be a regular file reached from the library folder without
/// following a symbolic link. Ids come from files and D-Bus callers Notula does not control.
public enum LibraryNoteID {
    /// Longest id taken (bytes); a longer one is no id of ours (PATH_MAX is 4,096).
    public static let maxLength = 4096

    /// Whether `id` has the form of a library note's id: a relative path of at most
    /// `maxLength` bytes whose parts are neither empty, `.`, `..` nor hidden, each at most 255
    /// bytes, without NUL, ending in a note's file name (`NoteLibrary.isNoteFileName`).
    public static func isWellFormed(_ id: String) -> Bool {
        // Lengths in the file system's bytes: a name that is not UTF-8 is carried in the
        // string by one scalar a byte (`PathBytes`).
        guard !id.isEmpty, id.utf8.count <= 4 * maxLength, !id.hasPrefix("/") else { return false }
        let bytes = PathBytes.bytes(id)
        guard bytes.count <= maxLength, !bytes.contains(0) else { return false }
        let parts = id.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && PathBytes.bytes(String($0)).count <= 255 }),
              let name = parts.last else { return false }
        return NoteLibrary.isNoteFileName(String(name))
    }

    /// The note's file when `id` is well formed and every part of its path below `library` is
    /// there and no symbolic link (so nothing leads out of the library), the last a regular
    /// file; nil otherwise. Touches nothing but `lstat`.
    public static func file(_ id: String, in library: URL) -> URL? {
        guard isWellFormed(id) else { return nil }
        var path = library.path
        let parts = id.split(separator: "/")
        for (index, part) in parts.enumerated() {
            path += "/" + part
            var info = stat()
            guard PathBytes.withCString(path, { lstat($0, &info) }) == 0 else { return nil }
            let type = info.st_mode & S_IFMT
            guard index == parts.count - 1 ? type == S_IFREG : type == S_IFDIR else { return nil }
        }
        return library.appendingPathComponent(id)
    }

    /// The id `url` has in `library` when it is well formed (the file may be gone: a note
    /// deleted by another program keeps its id), else nil: a file elsewhere, hidden, or no note.
    /// Whether it may open is `file(_:in:)`'s to say.
    public static func id(of url: URL, in library: URL) -> String? {
        let root = library.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        guard path.hasPrefix(root) else { return nil }
        let id = String(path.dropFirst(root.count))
        return isWellFormed(id) ? id : nil
    }
}
