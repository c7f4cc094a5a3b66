import Gtk
import NotesCore

/// The Markdown keys of the editor: Ctrl+B bold, Ctrl+I italic, Ctrl+K link, Enter continues a
/// list, quote or task (and ends it on an empty item), Tab / Shift+Tab indent and outdent list
/// items, Ctrl+Enter toggles the task at the cursor. What each does to the text is decided in
/// NotesCore (`MarkdownEditing`); here it becomes one undoable edit of the buffer.
final class MarkdownKeys {
    private let textView: TextView
    private let buffer: TextBuffer

    init(textView: TextView, buffer: TextBuffer) {
        self.textView = textView
        self.buffer = buffer
        let keys = KeyController()
        keys.runBeforeWidget()
        keys.onKeyPressed { [weak self] _, keyval, modifiers in
            guard let self, self.textView.isEditable else { return false }
            return self.handle(keyval, modifiers & Key.modifierMask)
        }
        textView.addController(keys)
    }

    /// A key press (modifiers masked to Ctrl, Alt, Shift, Super); true when handled.
    func handle(_ keyval: UInt32, _ modifiers: UInt32) -> Bool {
        let control = Key.primaryMask, shift = Key.shiftMask
        switch (keyval, modifiers) {
        case (Key.letter("b"), control), (Key.letter("B"), control): wrapSelection(MarkdownEditing.boldMarkers)
        case (Key.letter("i"), control), (Key.letter("I"), control): wrapSelection(MarkdownEditing.italicMarkers)
        case (Key.letter("k"), control), (Key.letter("K"), control): makeLink()
        case (Key.returnKey, 0), (Key.kpEnter, 0): return continueBlock()
        case (Key.returnKey, control), (Key.kpEnter, control): return toggleTask(atLine: buffer.line(atOffset: buffer.cursorOffset))
        case (Key.tab, 0): return indentLines(outdent: false)
        case (Key.leftTab, shift), (Key.tab, shift), (Key.leftTab, 0): return indentLines(outdent: true)
        default: return false
        }
        return true
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

    private func continueBlock() -> Bool {
        let selection = buffer.selection
        guard selection.isEmpty else { return false }
        let line = buffer.line(atOffset: selection.lowerBound)
        let start = buffer.startOffset(ofLine: line)
        guard let edit = MarkdownEditing.newline(in: buffer.text(ofLine: line), at: selection.lowerBound - start) else { return false }
        apply(edit.shifted(by: start))
        return true
    }

    /// Toggles the task box of `line`: one character, one undo step. False: not a task.
    @discardableResult
    func toggleTask(atLine line: Int) -> Bool {
        guard line < buffer.lineCount, let toggle = MarkdownEditing.taskToggle(buffer.text(ofLine: line)) else { return false }
        let offset = buffer.startOffset(ofLine: line) + toggle.column
        let selection = buffer.selection
        buffer.replace(offset..<offset + 1, with: toggle.character)
        buffer.selection = selection
        return true
    }

    /// Tab / Shift+Tab on list items (every selected line that is one); false when none is,
    /// so Tab inserts a tab and Shift+Tab moves the focus as usual.
    private func indentLines(outdent: Bool) -> Bool {
        let selection = buffer.selection
        let first = buffer.line(atOffset: selection.lowerBound)
        let last = buffer.line(atOffset: selection.upperBound)
        var edits: [MarkdownEdit] = []
        for line in first...last {
            let text = buffer.text(ofLine: line)
            let edit = outdent ? MarkdownEditing.outdent(text) : MarkdownEditing.indent(text)
            if let edit { edits.append(edit.shifted(by: buffer.startOffset(ofLine: line))) }
        }
        guard !edits.isEmpty else { return MarkdownListItem(buffer.text(ofLine: first)) != nil }
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
        let cursor = moved(selection.lowerBound)..<moved(selection.upperBound)
        buffer.selection = cursor
        return true
    }

    private func apply(_ edit: MarkdownEdit) {
        buffer.replace(edit.range, with: edit.replacement)
        buffer.selection = edit.selection
        textView.scrollToCursor()
    }
}
