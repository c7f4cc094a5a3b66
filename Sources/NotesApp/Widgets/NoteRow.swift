import Gtk
import NotesCore

/// The widgets of one (recycled) row in the notes list: one label of two lines, the title, then
/// time and preview (Pango markup styles each line). GTK 4.8 keeps ~200 rows and makes them all
/// again when a search's change replaces them (clearing a search that matched one note), so
/// each widget a row does without is 200 fewer to make, style, measure and draw: a row is a box
/// and a label, and the conflict dot and the pin are made the first time the row needs them.
final class NoteRow {
    let root = Box(.horizontal, spacing: 6)
    /// The yellow dot, clickable: Show Conflicts for this note.
    private var conflictButton: Button?
    private let lines = Label()
    private var pin: Image?
    /// The title as shown (without markup).
    private(set) var shownTitle = ""
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
        lines.xalign = 0
        lines.ellipsizesAtEnd = true  // each line on its own
        lines.hexpand = true
        root.append(lines)
        lines.setMarkup(Self.placeholder)
    }

    /// Two lines as high as a row's text, with next to nothing for Pango to shape.
    private static let placeholder = markup(title: " ", meta: " ")

    private static func markup(title: String, meta: String) -> String {
        "<b>\(title)</b>\n<span size=\"smaller\" alpha=\"70%\">\(meta)</span>"
    }

    /// `text` on one line: a note's first lines end only at "\n", and Pango also breaks at "\r",
    /// U+2028 and U+2029; a row is two lines.
    private static func oneLine(_ text: String) -> String {
        func breaks(_ scalar: Unicode.Scalar) -> Bool { scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}" }
        guard text.unicodeScalars.contains(where: breaks) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { breaks($0) ? " " : $0 }))
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
        root.prepend(button)  // before the text
        conflictButton = button
        return button
    }

    private func makePin() -> Image {
        let image = Image(iconName: "view-pin-symbolic")
        image.addCSSClass("note-meta")
        image.tooltip = tr("Pinned")
        image.valign = .start
        root.append(image)  // after the text
        pin = image
        return image
    }

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
        let metaText = Self.oneLine(preview.isEmpty ? time : "\(time)  \(preview)")
        let titleText = Self.oneLine(note.title)
        shownTitle = note.title
        if query.isEmpty {
            lines.setMarkup(Self.markup(title: Label.escape(titleText), meta: Label.escape(metaText)))
        } else {
            lines.setMarkup(Self.markup(title: SearchHighlight.markup(titleText, query: query),
                                        meta: SearchHighlight.markup(metaText, query: query)))
        }
        showMarks(of: note, time: time, pinned: pinned)
    }

    /// Stands for `note` while out of sight: everything but the text, which Pango would lay
    /// out for nothing (GTK 4.8 binds ~200 rows and measures them all after every change that
    /// moves them: a search's keystroke). The row keeps its height (`placeholder`) and its
    /// name for screen readers; `show` fills it in once it is on screen.
    func place(_ note: NoteSummary, time: String, pinned: Bool = false) {
        if shown != nil {
            shown = nil
            shownTitle = ""
            lines.setMarkup(Self.placeholder)
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
