import Foundation

/// Where a note is: its library and its id there ("Work/note.md"). Relative links in the
/// note (pictures, files, other notes) are read against its folder.
public struct NoteLocation: Equatable, Sendable {
    public let library: URL
    /// The note's path relative to the library.
    public let noteID: String

    public init(library: URL, noteID: String) {
        self.library = library.standardizedFileURL
        self.noteID = noteID
    }

    public var noteURL: URL { library.appendingPathComponent(noteID) }
    /// The note's folder relative to the library ("" for the top, "Work" for a notebook).
    public var folderID: String { (noteID as NSString).deletingLastPathComponent }
}
