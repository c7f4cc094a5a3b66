import Foundation
import Gtk
import NotesCore

/// Draws Markdown in the editor's buffer as text tags, as the user types. Styling never touches
/// the text.
///
/// Only the lines around what is on screen carry tags (the visible lines and a margin), styled
/// as they come into view: a long note opens at once, and the buffer's tags stay few whatever
/// its length (GTK's text copy, done at every autosave, slows down with every tag toggle).
/// What a line inherits from above — inside a code fence or not — is kept for every line in
/// `states` (computed from the whole text at load, cheaply), so any part can be styled first.
/// After an edit the edited lines and their neighbours are restyled (a setext underline
/// changes the line above), then the lines below while their state differs from before: a
/// fence typed at the top of a long note is followed in slices when the main loop is idle
/// (below input and drawing), so typing never waits for it.
final class MarkdownHighlighter {
    private let buffer: TextBuffer
    /// The block state each line ends in; as many as the buffer has lines.
    private var states: [MarkdownBlockState] = [.outside]
    /// The lines that carry tags.
    private var styled = IndexSet()
    /// The lines that should carry tags now (on screen, with a margin).
    private var wanted = 0..<0
    /// Lines still to follow after an edit, in idle slices: from `from`, at least through
    /// `through` (the edit's own lines: their states are placeholders until computed), then on
    /// while states change.
    private var pending: (from: Int, through: Int)?
    private var isSliceQueued = false
    /// While set, edits are not followed (a load restyles after).
    var isSuspended = false
    /// Called after lines were restyled (task boxes follow).
    var onRestyled: ((Range<Int>) -> Void)?
    /// Where the view is: the lines on screen (set by the editor as it scrolls).
    var visibleLines: () -> ClosedRange<Int> = { 0...80 }

    /// The time one slice may take on the main thread.
    static let sliceBudget = 0.004
    /// Lines styled above and below the visible ones.
    static let margin = 120

    private static let styleTags = MarkdownStyle.allCases.map(MarkdownTheme.tagName)

    init(buffer: TextBuffer, dark: Bool) {
        self.buffer = buffer
        setDark(dark)
        buffer.onInserted { [weak self] buffer, offset, count in
            guard let self, !self.isSuspended else { return }
            let first = buffer.line(atOffset: offset)
            self.edited(first...buffer.line(atOffset: offset + count))
        }
        buffer.onDeleted { [weak self] buffer, offset in
            guard let self, !self.isSuspended else { return }
            let line = buffer.line(atOffset: offset)
            self.edited(line...line)
        }
    }

    func setDark(_ dark: Bool) {
        for style in MarkdownStyle.allCases {
            buffer.defineTag(MarkdownTheme.tagName(style), style: MarkdownTheme.tagStyle(style, dark: dark))
        }
    }

    /// The text was replaced (a load or a reload): `text` is what the buffer now holds.
    /// `fresh`: replaced as a whole, so it carries no tags yet.
    func restyleAll(text: String, fresh: Bool) {
        if !fresh {
            // Lines moved under the tags: clear them all (few: only lines seen were styled).
            for name in Self.styleTags { buffer.removeTag(name, from: 0..<buffer.characterCount) }
        }
        styled = IndexSet()
        pending = nil
        states = MarkdownLineStyler.exitStates(of: text)
        if states.count != buffer.lineCount { states = scannedStates() }
        wanted = 0..<0
        styleWhatIsInView()
    }

    /// The block state line `line` enters with (inside a code fence or not).
    func state(enteringLine line: Int) -> MarkdownBlockState {
        line > 0 && line <= states.count ? states[line - 1] : .outside
    }

    /// Whether what should be styled is (tests and benchmarks wait for it).
    var isComplete: Bool { pending == nil && wanted.allSatisfy(styled.contains) }

    /// The view scrolled or was resized: style what came into view, soon. Never at once: GTK
    /// reports scrolling while it lays the text out, and a tag changed then breaks its layout
    /// (an assertion in gtk_text_view_validate_onscreen).
    func viewMoved() {
        guard !isMoveQueued else { return }
        isMoveQueued = true
        Idle.once { [weak self] in
            self?.isMoveQueued = false
            self?.styleWhatIsInView()
        }
    }

    private var isMoveQueued = false

    private func styleWhatIsInView() {
        let visible = visibleLines()
        let count = buffer.lineCount
        wanted = max(visible.lowerBound - Self.margin, 0)..<min(visible.upperBound + Self.margin + 1, count)
        styleSlice()
    }

    /// Styles unstyled wanted lines and follows pending state changes for one slice; queues
    /// the next slice (idle) while work remains.
    private func styleSlice() {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Self.sliceBudget * 1e9)
        var touched: Range<Int>?
        if let (from, through) = pending {
            pending = nil
            touched = follow(from: from, through: through, deadline: deadline)
        }
        var line = wanted.lowerBound
        while line < wanted.upperBound, DispatchTime.now().uptimeNanoseconds < deadline {
            if !styled.contains(line) {
                style(line, entering: line == 0 ? .outside : states[line - 1])
                touched = (touched.map { min($0.lowerBound, line) } ?? line)..<max(touched?.upperBound ?? 0, line + 1)
            }
            line += 1
        }
        if let touched { onRestyled?(touched) }
        if !isComplete, !isSliceQueued {
            isSliceQueued = true
            Idle.once { [weak self] in
                self?.isSliceQueued = false
                self?.styleSlice()
            }
        }
    }

    /// After an edit of `lines` (as they are now): keep `states` and `styled` one per line,
    /// then restyle.
    private func edited(_ lines: ClosedRange<Int>) {
        let count = buffer.lineCount
        let added = count - states.count
        if added > 0 {
            states.insert(contentsOf: repeatElement(states[lines.lowerBound], count: added), at: lines.lowerBound + 1)
            styled.shift(startingAt: lines.lowerBound + 1, by: added)
        } else if added < 0 {
            let removed = lines.lowerBound + 1..<lines.lowerBound + 1 - added
            states.removeSubrange(removed)
            styled.remove(integersIn: removed)
            styled.shift(startingAt: removed.upperBound, by: added)
        }
        // Lines added inside what is wanted are wanted too; lines at the end may be gone.
        if added > 0, lines.lowerBound < wanted.upperBound {
            wanted = wanted.lowerBound..<wanted.upperBound + added
        }
        wanted = wanted.clamped(to: 0..<count)
        // Text moved between the edited lines (a line split or joined) took its tags along:
        // clear them all at once; the lines in view are styled again below.
        let editedEnd = lines.upperBound + 1 < count ? buffer.startOffset(ofLine: lines.upperBound + 1) : buffer.characterCount
        for name in Self.styleTags { buffer.removeTag(name, from: buffer.startOffset(ofLine: lines.lowerBound)..<editedEnd) }
        styled.remove(integersIn: lines.lowerBound..<lines.upperBound + 1)
        var first = max(lines.lowerBound - 1, 0)
        var last = min(lines.upperBound + 1, count - 1)
        if let earlier = pending {
            // Lines still to follow from an earlier edit: one run from the first of them.
            pending = nil
            first = min(first, earlier.from, count - 1)
            last = max(last, min(earlier.through + max(added, 0), count - 1))
        }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Self.sliceBudget * 1e9)
        let touched = follow(from: first, through: last, deadline: deadline)
        onRestyled?(touched)
        if pending != nil || !isComplete { styleSlice() }
    }

    /// Restyles lines `first...through`, then onwards while a line's exit state changes (lines
    /// off screen only get their state: a large paste is not styled where nobody looks). Stops
    /// at `deadline`, leaving the rest pending.
    private func follow(from first: Int, through last: Int, deadline: UInt64) -> Range<Int> {
        let count = buffer.lineCount
        var state = first == 0 ? MarkdownBlockState.outside : states[first - 1]
        var line = first
        while line < count {
            let before = states[line]
            if styled.contains(line) || wanted.contains(line) {
                state = style(line, entering: state)
            } else {
                state = MarkdownLineStyler.exitState(of: buffer.text(ofLine: line), entering: state)
                states[line] = state
            }
            line += 1
            if line > last, state == before { break }
            if line % 16 == 0, line < count, DispatchTime.now().uptimeNanoseconds > deadline {
                pending = (line, max(last, line))
                break
            }
        }
        return first..<line
    }

    /// Styles one line (replacing its tags) and records its exit state; returns it.
    @discardableResult
    private func style(_ line: Int, entering state: MarkdownBlockState) -> MarkdownBlockState {
        let text = buffer.text(ofLine: line)
        let count = buffer.lineCount
        let previous = line > 0 ? buffer.text(ofLine: line - 1) : nil
        let next = line + 1 < count ? buffer.text(ofLine: line + 1) : nil
        let start = buffer.startOffset(ofLine: line)
        let length = text.unicodeScalars.count
        let lineEnd = line + 1 < count ? buffer.startOffset(ofLine: line + 1) : start + length
        // Always cleared: an edit can move a styled line's text to another line number (text
        // inserted at its start), so `styled` cannot say for sure which lines carry tags.
        for name in Self.styleTags { buffer.removeTag(name, from: start..<lineEnd) }
        let result = MarkdownLineStyler.style(text, index: line, entering: state, previous: previous, next: next)
        for span in result.spans {
            // A whole line as `lineTagRange` says: never over its break (a blank line in a code
            // block, which has only its break, gets that).
            let whole = span.range.lowerBound == 0 && span.range.upperBound == length
            let range = whole ? buffer.lineTagRange(line) : start + span.range.lowerBound..<start + span.range.upperBound
            buffer.applyTag(MarkdownTheme.tagName(span.style), to: range)
        }
        styled.insert(line)
        states[line] = result.exit
        return result.exit
    }

    /// The states from the buffer's own lines (when the text splits into lines differently
    /// from GTK, which also ends lines at a few rarer characters).
    private func scannedStates() -> [MarkdownBlockState] {
        var state = MarkdownBlockState.outside
        return (0..<buffer.lineCount).map { line in
            state = MarkdownLineStyler.exitState(of: buffer.text(ofLine: line), entering: state)
            return state
        }
    }
}
