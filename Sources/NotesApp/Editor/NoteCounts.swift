import Dispatch
import Foundation
import Gtk
import NotesCore

/// Under the text: how many words and characters the note has — the selection's, while
/// there is one ("Selected: 2 words, 11 characters") — in the user's language (issue #48).
/// Counted once the text and the selection rest for a moment; a large note is counted on a
/// queue of its own, so typing into a megabyte never waits for it.
final class NoteCounts {
    let root = Label()
    private let buffer: TextBuffer
    private var pending: DispatchWorkItem?
    /// Grows with each change: a count made elsewhere for an older text is dropped.
    private var generation = 0
    private static let counting = DispatchQueue(label: "notula.counts", qos: .utility)
    /// How long the text and the selection rest before they are counted.
    static let pause: TimeInterval = 0.15

    init(buffer: TextBuffer) {
        self.buffer = buffer
        root.addCSSClass("note-meta")
        root.addCSSClass("note-counts")
        root.halign = .end
        root.setMargins(top: 2, bottom: 4, start: 12, end: 12)
        buffer.onChanged { [weak self] _ in self?.textMoved() }
        // A selection made, changed or let go moves the cursor; a plain move changes nothing
        // counted (a megabyte is not counted again at each arrow key).
        buffer.onCursorMoved { [weak self] buffer in
            guard let self, self.showsSelection || !buffer.selection.isEmpty else { return }
            self.textMoved()
        }
    }

    /// The label says a selection's counts (or is about to).
    private var showsSelection = false

    /// The text or the selection changed (or another note is shown): counted after the pause.
    func textMoved() {
        generation += 1
        pending?.cancel()
        let work = DispatchWorkItem { [weak self] in self?.count() }
        pending = work
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.pause, execute: work)
    }

    /// Another note is shown: counted at once, so its first frame has its counts (after the
    /// pause they cost a layout and a frame of their own); a large one still elsewhere.
    func noteShown() {
        generation += 1
        pending?.cancel()
        pending = nil
        count()
    }

    private func count() {
        let selection = buffer.selection
        let isSelection = !selection.isEmpty
        showsSelection = isSelection
        let text = isSelection ? buffer.text(in: selection) : buffer.text
        guard text.utf8.count >= TextCounts.countsElsewhereFrom else { return show(TextCounts(counting: text), isSelection) }
        let asked = generation
        Self.counting.async {
            let counts = TextCounts(counting: text)
            DispatchQueue.main.async { [weak self] in
                guard let self, self.generation == asked else { return }
                self.show(counts, isSelection)
            }
        }
    }

    private func show(_ counts: TextCounts, _ isSelection: Bool) {
        let words = Localization.number(counts.words), characters = Localization.number(counts.characters)
        // TRANSLATORS: the note's counts under the text; %s is a number as the user's language writes it
        let said = trn("%s word", "%s words", counts.words, words) + ", " + trn("%s character", "%s characters", counts.characters, characters)
        // TRANSLATORS: the counts of the selected text; %s is "2 words, 11 characters"
        root.text = isSelection ? tr("Selected: %s", said) : said
    }
}
