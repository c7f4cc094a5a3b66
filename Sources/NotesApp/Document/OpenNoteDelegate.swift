import Foundation
import NotesCore

/// What the owner of an editor (the main window's library, a note's own window) hears from
/// its `OpenNoteController`, and what it is asked. Every method has a default that does
/// nothing, so a note's window answers only what it shows.
protocol OpenNoteDelegate: AnyObject {
    /// The editor shows the note at `url` from now (nil: none): the library indexes its saves
    /// when the user pauses (`openNoteEdited`) or leaves it.
    func openNote(_ openNote: OpenNoteController, willShow url: URL?)
    /// The user changed the open note's text.
    func openNoteEdited(_ openNote: OpenNoteController)
    /// The note's title or preview (from the text's first lines) or its file date changed.
    func openNote(_ openNote: OpenNoteController, changed document: NoteDocument, leadingText: String)
    /// A brief notice for the user (changes merged, conflict resolved, version restored).
    func openNote(_ openNote: OpenNoteController, notice: String)
    /// Where a new note's file goes (Keep Both in Show Conflicts); nil: none can be made.
    func newNoteURL(for openNote: OpenNoteController) -> URL?
    /// Keep Both saved the local text as this new note.
    func openNote(_ openNote: OpenNoteController, added url: URL)
    /// Open as New Note (Browse Versions): a new note with this text.
    func openNote(_ openNote: OpenNoteController, openAsNewNote text: String)
    /// The note could not be opened because its file is gone (deleted or moved while listed):
    /// information, not a failure.
    func openNote(_ openNote: OpenNoteController, noteGone url: URL)
    /// The note just closed had lost its file to another program (its text is in a draft).
    func openNote(_ openNote: OpenNoteController, leftWithoutItsFile url: URL, title: String)
}

extension OpenNoteDelegate {
    func openNote(_ openNote: OpenNoteController, willShow url: URL?) {}
    func openNoteEdited(_ openNote: OpenNoteController) {}
    func openNote(_ openNote: OpenNoteController, changed document: NoteDocument, leadingText: String) {}
    func openNote(_ openNote: OpenNoteController, notice: String) {}
    func newNoteURL(for openNote: OpenNoteController) -> URL? { nil }
    func openNote(_ openNote: OpenNoteController, added url: URL) {}
    func openNote(_ openNote: OpenNoteController, openAsNewNote text: String) {}
    func openNote(_ openNote: OpenNoteController, noteGone url: URL) {}
    func openNote(_ openNote: OpenNoteController, leftWithoutItsFile url: URL, title: String) {}
}
