import Gtk
import NotesCore

/// The widgets of one (recycled) row in the notes list: title, then time and preview.
final class NoteRow {
    let root = Box(.vertical, spacing: 2)
    private let titleLine = Box(.horizontal, spacing: 6)
    private let conflictDot = Box(.horizontal)
    /// The yellow dot, clickable: Show Conflicts for this note.
    private let conflictButton: Button
    private let title = Label()
    private let pin = Image(iconName: "view-pin-symbolic")
    private let meta = Label()
    /// The note this row shows now (rows are reused for other notes as the list scrolls).
    var noteID: String?
    var onShowConflicts: ((String) -> Void)?
    /// What the row shows now. GTK 4.8 binds a row again whenever a change moves it (every row
    /// after a search's change, even one that keeps its note), and a label given the same text
    /// is laid out again: showing the same thing again does nothing.
    private var shown: Shown?

    private struct Shown: Equatable {
        let note: NoteSummary
        let time: String
        let pinned: Bool
        let query: String
    }

    init() {
        conflictButton = Button(child: conflictDot)
        root.addCSSClass("note-row")
        for label in [title, meta] {
            label.xalign = 0
            label.ellipsizesAtEnd = true
        }
        conflictDot.addCSSClass("status-dot")
        conflictDot.addCSSClass("conflict")
        conflictDot.valign = .center
        conflictButton.addCSSClass("flat")
        conflictButton.addCSSClass("conflict-button")
        conflictButton.valign = .center
        conflictButton.accessibleLabel = tr("Show Conflicts")
        conflictButton.onClicked { [weak self] _ in
            guard let self, let id = self.noteID else { return }
            self.onShowConflicts?(id)
        }
        titleLine.append(conflictButton)
        titleLine.append(title)
        pin.addCSSClass("note-meta")
        titleLine.append(pin)
        root.append(titleLine)
        root.append(meta)
        title.addCSSClass("note-title")
        meta.addCSSClass("note-meta")
    }

    /// Shows `note`; with a `query`, its words are highlighted in the title and the preview.
    func show(_ note: NoteSummary, time: String, pinned: Bool = false, query: String = "") {
        let now = Shown(note: note, time: time, pinned: pinned, query: query)
        guard now != shown else { return }
        shown = now
        noteID = note.id
        // The row shows about 45 characters: longer text is only shaped by Pango to be cut off
        // (a search re-measures ~200 bound rows at once).
        // A file that is not UTF-8 says so in the language shown now (the index keeps the words
        // of the language it was listed in).
        let text = note.isValidText ? note.preview : NoteLibrary.notUTF8Preview
        let preview = text.count > 90 ? String(text.prefix(90)) : text
        let metaText = preview.isEmpty ? time : "\(time)  \(preview)"
        if query.isEmpty {
            title.text = note.title
            meta.text = metaText
        } else {
            title.setMarkup(SearchHighlight.markup(note.title, query: query))
            meta.setMarkup(SearchHighlight.markup(metaText, query: query))
        }
        // Tooltips are set only when they show: setting one asks the X server where the pointer
        // is (a round trip per row, 0.4 s when a search made 200 rows).
        pin.isVisible = pinned
        if pinned { pin.tooltip = tr("Pinned") }
        // A file that cannot be read is listed greyed, its reason as the preview and tooltip.
        if note.unreadableReason != nil { root.addCSSClass("unreadable") } else { root.removeCSSClass("unreadable") }
        root.tooltip = note.unreadableReason
        let inConflict = !note.conflictCopies.isEmpty
        conflictButton.isVisible = inConflict
        if inConflict { conflictButton.tooltip = tr("In conflict: another version was synced from another device. Click to show the conflicts.") }
        // TRANSLATORS: %s is the note's title.
        conflictButton.accessibleLabel = tr("Show Conflicts of “%s”", note.title)
        // TRANSLATORS: states a screen reader says after a note's title and time, lowercase (joined by commas).
        let pinnedState = pinned ? tr("pinned") : nil
        let conflictState = inConflict ? tr("in conflict") : nil
        // TRANSLATORS: a state a screen reader says after a note's title and time; %s is why the file cannot be read.
        let unreadableState = note.unreadableReason.map { tr("cannot be read: %s", $0) }
        let states = [pinnedState, conflictState, unreadableState].compactMap { $0 }
        root.accessibleLabel = ([note.title, time] + states).joined(separator: ", ")
    }
}
