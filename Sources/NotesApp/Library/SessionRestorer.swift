import Foundation
import NotesCore

/// What the last session showed — the notebook, the open note, its cursor and scroll
/// position — chosen and opened again once the library is first listed.
final class SessionRestorer {
    struct Restoring {
        var note: String?
        var cursorOffset: Int
        var topOffset: Int
        var notebook: String?
    }

    private unowned let notes: NotesController
    /// Set by the window from its saved state before the library is listed.
    var pending: Restoring?

    init(notes: NotesController) {
        self.notes = notes
    }

    /// The notebook the last session showed, chosen again before a note opens (when its folder
    /// is still there; the sidebar lists it once the notebooks are read).
    func restoreNotebook() {
        guard let notebook = pending?.notebook else { return }
        pending?.notebook = nil
        guard Notebooks(library: notes.library.folder).exists(notebook) else { return }
        notes.notebooks.list.select(notebook)
    }

    /// The note the last session showed opens again, its cursor and scroll position as they
    /// were; false when there was none or it is gone.
    func restoreOpenNote() -> Bool {
        guard let restore = pending, let id = restore.note else { return false }
        pending?.note = nil
        let openNote = notes.openNote
        // Asked for something else already (a desktop search result, a file, a new note).
        guard openNote.document == nil, !openNote.isOpening else { return true }
        // Only a note of the library (`reveal` checks the id read from disk); at a first start
        // the index may not list it yet. The list stays at its top, the newest notes (another
        // program may have added many since): the note is selected there, not scrolled to.
        guard notes.reveal(id, scroll: false) else { return false }
        openNote.whenShown(notes.library.folder.appendingPathComponent(id)) { [weak openNote] in
            guard let editor = openNote?.editor else { return }
            editor.buffer.cursorOffset = min(restore.cursorOffset, editor.buffer.characterCount)
            // Once laid out: the view can only scroll as far as its lines have heights.
            editor.textView.onNextFramePainted { [weak editor] in editor?.textView.scrollToTop(ofOffset: restore.topOffset) }
            DesktopReport.restored(id, cursor: editor.buffer.cursorOffset)
        }
        return true
    }
}
