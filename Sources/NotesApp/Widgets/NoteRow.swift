import Gtk
import NotesCore

/// The widgets of one (recycled) row in the notes list: title, then time and preview.
/// The conflict dot and the pin are made the first time the row needs them: GTK 4.8 keeps
/// ~200 rows and makes them all again when a search's change replaces them (clearing a search
/// that matched one note), so each widget a row does without is 200 fewer to make and style.
final class NoteRow {
    let root = Box(.vertical, spacing: 2)
    private let titleLine = Box(.horizontal, spacing: 6)
    /// The yellow dot, clickable: Show Conflicts for this note.
    private var conflictButton: Button?
    private let title = Label()
    private var pin: Image?
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
        root.addCSSClass("note-row")
        for label in [title, meta] {
            label.xalign = 0
            label.ellipsizesAtEnd = true
        }
        titleLine.append(title)
        root.append(titleLine)
        root.append(meta)
        title.addCSSClass("note-title")
        meta.addCSSClass("note-meta")
    }

    private func makeConflictButton() -> Button {
        let dot = Box(.horizontal)
        dot.addCSSClass("status-dot")
        dot.addCSSClass("conflict")
        dot.valign = .center
        let button = Button(child: dot)
        button.addCSSClass("flat")
        button.addCSSClass("conflict-button")
        button.valign = .center
        button.onClicked { [weak self] _ in
            guard let self, let id = self.noteID else { return }
            self.onShowConflicts?(id)
        }
        titleLine.prepend(button)  // before the title
        conflictButton = button
        return button
    }

    private func makePin() -> Image {
        let image = Image(iconName: "view-pin-symbolic")
        image.addCSSClass("note-meta")
        image.tooltip = tr("Pinned")
        titleLine.append(image)  // after the title
        pin = image
        return image
    }

    /// The title shown (without highlights).
    var shownTitle: String { title.text }
    var showsPin: Bool { pin?.isVisible ?? false }
    var showsConflict: Bool { conflictButton?.isVisible ?? false }

    /// Shows `note`; with a `query`, its words are highlighted in the title and the preview.
    func show(_ note: NoteSummary, time: String, pinned: Bool = false, query: String = "") {
        let now = Shown(note: note, time: time, pinned: pinned, query: query)
        guard now != shown else { return }
        shown = now
        // The row shows about 45 characters: longer text is only shaped by Pango to be cut off
        // (a search re-measures ~200 bound rows at once).
        // A file that cannot be read says why; one that is not UTF-8 says so in the language
        // shown now (the index keeps the words of the language it was listed in).
        let text = note.shownPreview
        let preview = text.count > 90 ? String(text.prefix(90)) : text
        let metaText = preview.isEmpty ? time : "\(time)  \(preview)"
        if query.isEmpty {
            title.text = note.title
            meta.text = metaText
        } else {
            title.setMarkup(SearchHighlight.markup(note.title, query: query))
            meta.setMarkup(SearchHighlight.markup(metaText, query: query))
        }
        showMarks(of: note, time: time, pinned: pinned)
    }

    /// Stands for `note` while out of sight: everything but the text, which Pango would lay
    /// out for nothing (GTK 4.8 binds ~200 rows and measures them all after every change that
    /// moves them: a search's keystroke). The row keeps its height (an empty label is a line
    /// high) and its name for screen readers; `show` fills it in once it is on screen.
    func place(_ note: NoteSummary, time: String, pinned: Bool = false) {
        if shown != nil {
            shown = nil
            title.text = ""
            meta.text = ""
        }
        showMarks(of: note, time: time, pinned: pinned)
    }

    /// Whether the row waits for its text (`place`).
    var isPlaceholder: Bool { shown == nil }

    /// The pin, the conflict dot, the unreadable look and the name screen readers say.
    private func showMarks(of note: NoteSummary, time: String, pinned: Bool) {
        noteID = note.id
        // Tooltips are set only when they show: setting one asks the X server where the pointer
        // is (a round trip per row, 0.4 s when a search made 200 rows).
        if pinned { (pin ?? makePin()).isVisible = true } else { pin?.isVisible = false }
        // A file that cannot be read is listed greyed, its reason as the preview and tooltip.
        if note.unreadableReason != nil { root.addCSSClass("unreadable") } else { root.removeCSSClass("unreadable") }
        root.tooltip = note.unreadableReason
        let inConflict = !note.conflictCopies.isEmpty
        if inConflict {
            let button = conflictButton ?? makeConflictButton()
            button.isVisible = true
            button.tooltip = tr("In conflict: another version was synced from another device. Click to show the conflicts.")
            // TRANSLATORS: %s is the note's title.
            button.accessibleLabel = tr("Show Conflicts of “%s”", note.title)
        } else {
            conflictButton?.isVisible = false
        }
        // TRANSLATORS: states a screen reader says after a note's title and time, lowercase (joined by commas).
        let pinnedState = pinned ? tr("pinned") : nil
        let conflictState = inConflict ? tr("in conflict") : nil
        // TRANSLATORS: a state a screen reader says after a note's title and time; %s is why the file cannot be read.
        let unreadableState = note.unreadableReason.map { tr("cannot be read: %s", $0) }
        let states = [pinnedState, conflictState, unreadableState].compactMap { $0 }
        root.accessibleLabel = ([note.title, time] + states).joined(separator: ", ")
    }
}
