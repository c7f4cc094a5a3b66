import Gtk
import NotesCore

/// The widgets of one (recycled) row in the notes list: title, then time and preview.
final class NoteRow {
    let root = Box(.vertical, spacing: 2)
    private let title = Label()
    private let meta = Label()
    /// The note this row shows now (rows are reused for other notes as the list scrolls).
    var noteID: String?

    init() {
        root.addCSSClass("note-row")
        for label in [title, meta] {
            label.xalign = 0
            label.ellipsizesAtEnd = true
            root.append(label)
        }
        title.addCSSClass("note-title")
        meta.addCSSClass("note-meta")
    }

    func show(_ note: NoteSummary, time: String) {
        noteID = note.id
        title.text = note.title
        meta.text = note.preview.isEmpty ? time : "\(time)  \(note.preview)"
        root.accessibleLabel = "\(note.title), \(time)"
    }
}
