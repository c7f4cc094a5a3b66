import Gtk
import NotesCore

/// The Markdown keys of the editor: Ctrl+B bold, Ctrl+I italic, Ctrl+K link, Enter continues a
/// list, quote or task (and ends it on an empty item), Tab / Shift+Tab indent and outdent list
/// items, Ctrl+Enter toggles the task at the cursor. What each does to the text is decided in
/// NotesCore (`MarkdownEditing`); here it becomes one undoable edit of the buffer.
///
/// They see keys before the text view (which would insert Enter or Tab itself), so before its
/// input method too: a key they would act on goes to the input method first, and when that
/// takes it (Enter confirming a composition: ibus, fcitx, GTK's Compose and Ctrl+Shift+U) they
/// do nothing — as GtkSourceView does for its auto-indent. Other keys they leave alone, so the
/// input method sees each key once.
final class MarkdownKeys {
    private let textView: TextView
    private let buffer: TextBuffer
    /// True while keys are another mode's commands (Vim's normal mode): none is Markdown's.
    var standsAside: () -> Bool = { false }

    init(textView: TextView, buffer: TextBuffer) {
        self.textView = textView
        self.buffer = buffer
        let keys = KeyController()
        keys.runBeforeWidget()
        keys.onKeyPressed { [weak self] keys, keyval, modifiers in
            guard let self, self.textView.isEditable, !self.standsAside() else { return false }
            return self.handle(keyval, modifiers & Key.modifierMask, inputMethodFirst: { self.textView.inputMethodTakes(keyOf: keys) })
        }
        textView.addController(keys)
    }

    /// A key press (modifiers masked to Ctrl, Alt, Shift, Super); true when handled.
    /// `inputMethodFirst` hands the key to the input method and says whether it took it.
    func handle(_ keyval: UInt32, _ modifiers: UInt32, inputMethodFirst: () -> Bool = { false }) -> Bool {
        guard action(for: keyval, modifiers) != nil else { return false }
        if inputMethodFirst() { return true }
        // The input method may have committed text before letting the key through: decide again.
        guard let act = action(for: keyval, modifiers) else { return false }
        act()
        return true
    }

    /// What the key does here and now, or nil when it is not a Markdown key at this place.
    private func action(for keyval: UInt32, _ modifiers: UInt32) -> (() -> Void)? {
        let control = Key.primaryMask, shift = Key.shiftMask
        switch (keyval, modifiers) {
        case (Key.letter("b"), control), (Key.letter("B"), control): return { self.wrapSelection(MarkdownEditing.boldMarkers) }
        case (Key.letter("i"), control), (Key.letter("I"), control): return { self.wrapSelection(MarkdownEditing.italicMarkers) }
        case (Key.letter("k"), control), (Key.letter("K"), control): return { self.makeLink() }
        case (Key.returnKey, 0), (Key.kpEnter, 0): return newlineEdit().map { edit in { self.apply(edit) } }
        case (Key.returnKey, control), (Key.kpEnter, control):
            let line = buffer.line(atOffset: buffer.cursorOffset)
            return taskToggle(atLine: line) == nil ? nil : { self.toggleTask(atLine: line) }
        case (Key.tab, 0): return indentAction(outdent: false)
        case (Key.leftTab, shift), (Key.tab, shift), (Key.leftTab, 0): return indentAction(outdent: true)
        default: return nil
        }
    }

    /// The lines holding the selection: their text and where it starts.
    private func selectedLines() -> (text: String, start: Int, selection: Range<Int>) {
        let selection = buffer.selection
        let first = buffer.line(atOffset: selection.lowerBound)
        let last = buffer.line(atOffset: selection.upperBound)
        let start = buffer.startOffset(ofLine: first)
        let end = buffer.startOffset(ofLine: last) + buffer.text(ofLine: last).unicodeScalars.count
        return (buffer.text(in: start..<end), start, selection.lowerBound - start..<selection.upperBound - start)
    }

    private func wrapSelection(_ markers: [String]) {
        let lines = selectedLines()
        apply(MarkdownEditing.toggleWrap(markers, in: lines.text, selection: lines.selection).shifted(by: lines.start))
    }

    private func makeLink() {
        let lines = selectedLines()
        apply(MarkdownEditing.toggleLink(in: lines.text, selection: lines.selection).shifted(by: lines.start))
    }

    /// Enter in a list item or quote: the edit that continues or ends it (nil elsewhere).
    private func newlineEdit() -> MarkdownEdit? {
        let selection = buffer.selection
        guard selection.isEmpty else { return nil }
        let line = buffer.line(atOffset: selection.lowerBound)
        let start = buffer.startOffset(ofLine: line)
        return MarkdownEditing.newline(in: buffer.text(ofLine: line), at: selection.lowerBound - start)?.shifted(by: start)
    }

    private func taskToggle(atLine line: Int) -> (offset: Int, character: String)? {
        guard line < buffer.lineCount, let toggle = MarkdownEditing.taskToggle(buffer.text(ofLine: line)) else { return nil }
        return (buffer.startOffset(ofLine: line) + toggle.column, toggle.character)
    }

    /// Toggles the task box of `line`: one character, one undo step. False: not a task.
    @discardableResult
    func toggleTask(atLine line: Int) -> Bool {
        guard let toggle = taskToggle(atLine: line) else { return false }
        let selection = buffer.selection
        buffer.replace(toggle.offset..<toggle.offset + 1, with: toggle.character)
        buffer.selection = selection
        return true
    }

    /// Tab / Shift+Tab on list items (every selected line that is one); nil when none is, so
    /// Tab inserts a tab and Shift+Tab moves the focus as usual.
    private func indentAction(outdent: Bool) -> (() -> Void)? {
        let selection = buffer.selection
        let first = buffer.line(atOffset: selection.lowerBound)
        let last = buffer.line(atOffset: selection.upperBound)
        var edits: [MarkdownEdit] = []
        for line in first...last {
            let text = buffer.text(ofLine: line)
            let edit = outdent ? MarkdownEditing.outdent(text) : MarkdownEditing.indent(text)
            if let edit { edits.append(edit.shifted(by: buffer.startOffset(ofLine: line))) }
        }
        guard !edits.isEmpty else {
            // A list item already at the left: Shift+Tab stays in it.
            return MarkdownListItem(buffer.text(ofLine: first)) != nil ? {} : nil
        }
        return { self.indent(with: edits, keeping: selection) }
    }

    private func indent(with edits: [MarkdownEdit], keeping selection: Range<Int>) {
        // From the bottom up, so earlier offsets stay right.
        buffer.asOneEdit {
            for edit in edits.reversed() { buffer.replace(edit.range, with: edit.replacement) }
        }
        /// Where an offset of the old text is now.
        func moved(_ offset: Int) -> Int {
            var result = offset
            for edit in edits {
                if edit.range.upperBound <= offset {
                    result += edit.replacement.unicodeScalars.count - edit.range.count
                } else if edit.range.lowerBound < offset {
                    result -= offset - edit.range.lowerBound
                }
            }
            return result
        }
        buffer.selection = moved(selection.lowerBound)..<moved(selection.upperBound)
    }

    private func apply(_ edit: MarkdownEdit) {
        buffer.replace(edit.range, with: edit.replacement)
        buffer.selection = edit.selection
        textView.scrollToCursor()
    }
}
