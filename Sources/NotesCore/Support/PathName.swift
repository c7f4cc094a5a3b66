/// The parts of a path inside the library ("Work/Q1/note.md"), split at its last "/" on the
/// UTF-8 bytes: NSString's `lastPathComponent` and `deletingLastPathComponent` bridge each
/// string on Linux (a watcher's burst of 20,000 names took 50 ms of the main thread).
public enum PathName {
    /// "note.md" of "Work/note.md"; the whole path when it has no folder.
    public static func last(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// "Work" of "Work/note.md"; "" when it has no folder.
    public static func parent(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    /// Whether a file name has an extension, as NSString's `pathExtension` sees one: a dot
    /// that is neither its first nor its last character.
    public static func hasExtension(_ name: String) -> Bool {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return false }
        return dot != name.utf8.startIndex && name.utf8.index(after: dot) != name.utf8.endIndex
    }
}
