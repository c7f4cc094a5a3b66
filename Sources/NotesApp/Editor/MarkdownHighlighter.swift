import Dispatch
import Gtk
import NotesCore

/// Draws Markdown in the editor's buffer as text tags, as the user types. Styling never touches
/// the text. After an edit only the edited lines are restyled, plus the lines below while their
/// block state (inside a code fence or not) differs from before; the state each line ends in is
/// kept in the buffer itself, as a tag on its line end, so it moves with the text. A whole new
/// text is styled from the top in slices of a few milliseconds on the main queue, so a long
/// note shows at once and typing never waits for the rest.
final class MarkdownHighlighter {
    private let buffer: TextBuffer
    /// Lines styled so far by the slices (lines below are styled when the slices get there).
    private var styledLines = 0
    /// Bumped by each new text: slices of an older text stop.
    private var generation = 0
    /// While set, edits are not styled (a load styles the whole text after).
    var isSuspended = false
    /// Called after lines were restyled (task boxes follow).
    var onRestyled: ((Range<Int>) -> Void)?

    /// The time one slice may take on the main thread.
    static let sliceBudget = 0.006
    /// Edits touching more lines than this are styled in slices too (a large paste).
    static let synchronousLineLimit = 400

    private static let fenceTagPrefix = "md-fence-"
    private static let styleTags = MarkdownStyle.allCases.map(MarkdownTheme.tagName)

    init(buffer: TextBuffer, dark: Bool) {
        self.buffer = buffer
        setDark(dark)
        buffer.onInserted { [weak self] buffer, offset, count in
            guard let self, !self.isSuspended else { return }
            self.edited(lines: buffer.line(atOffset: offset)...buffer.line(atOffset: offset + count))
        }
        buffer.onDeleted { [weak self] buffer, offset in
            guard let self, !self.isSuspended else { return }
            let line = buffer.line(atOffset: offset)
            self.edited(lines: line...line)
        }
    }

    func setDark(_ dark: Bool) {
        for style in MarkdownStyle.allCases {
            buffer.defineTag(MarkdownTheme.tagName(style), style: MarkdownTheme.tagStyle(style, dark: dark))
        }
    }

    /// Whether the lines not styled yet carry no tags (a new text): the slices skip removing.
    private var isFresh = false
    /// The fence tags defined so far ("md-fence-`3"), to remove from a line being restyled.
    private var fenceTags: Set<String> = []

    /// Styles the whole text again (after a load): the first slice now, the rest queued.
    /// `fresh`: the text was replaced as a whole, so it carries no tags yet.
    func restyleAll(fresh: Bool) {
        generation += 1
        styledLines = 0
        isFresh = fresh
        styleNextSlice(generation: generation)
    }

    /// Whether every line is styled (tests and benchmarks wait for it).
    var isComplete: Bool { styledLines >= buffer.lineCount }

    private func styleNextSlice(generation: Int) {
        guard generation == self.generation, styledLines < buffer.lineCount else { return }
        let started = DispatchTime.now().uptimeNanoseconds
        let deadline = started + UInt64(Self.sliceBudget * 1e9)
        let first = styledLines
        var state = styledLines == 0 ? MarkdownBlockState.outside : exitState(ofLine: styledLines - 1)
        let count = buffer.lineCount
        var previous = styledLines > 0 ? buffer.text(ofLine: styledLines - 1) : nil
        var current = buffer.text(ofLine: styledLines)
        while styledLines < count {
            let next = styledLines + 1 < count ? buffer.text(ofLine: styledLines + 1) : nil
            state = style(line: styledLines, text: current, entering: state, previous: previous, next: next, clear: !isFresh)
            styledLines += 1
            previous = current
            current = next ?? ""
            if styledLines % 32 == 0, DispatchTime.now().uptimeNanoseconds > deadline { break }
        }
        onRestyled?(first..<styledLines)
        guard styledLines < count else { return }
        DispatchQueue.main.async { [weak self] in self?.styleNextSlice(generation: generation) }
    }

    /// Restyles the edited lines and their neighbours (a setext underline changes the line
    /// above), then onwards while the block state differs from what the lines had before.
    private func edited(lines: ClosedRange<Int>) {
        let count = buffer.lineCount
        let first = max(lines.lowerBound - 1, 0)
        let last = min(lines.upperBound + 1, count - 1)
        // Lines not styled yet wait for their slice; only what is styled is kept right.
        let limit = min(styledLines, count)
        guard first < limit else { return }
        if last - first > Self.synchronousLineLimit {
            styledLines = first
            isFresh = false
            generation += 1
            let generation = self.generation
            DispatchQueue.main.async { [weak self] in self?.styleNextSlice(generation: generation) }
            return
        }
        var state = first == 0 ? MarkdownBlockState.outside : exitState(ofLine: first - 1)
        var line = first
        var previous = first > 0 ? buffer.text(ofLine: first - 1) : nil
        var current = buffer.text(ofLine: first)
        while line < limit {
            let before = exitState(ofLine: line)
            let next = line + 1 < count ? buffer.text(ofLine: line + 1) : nil
            state = style(line: line, text: current, entering: state, previous: previous, next: next, clear: true)
            line += 1
            if line > last, state == before { break }
            previous = current
            current = next ?? ""
        }
        onRestyled?(first..<line)
    }

    /// Styles one line and records its exit state; returns it.
    private func style(line: Int, text: String, entering state: MarkdownBlockState, previous: String?, next: String?,
                       clear: Bool) -> MarkdownBlockState {
        let start = buffer.startOffset(ofLine: line)
        let length = text.unicodeScalars.count
        let end = start + length
        // The line end too: it carries the state, and a code block's background spans it.
        let lineEnd = line + 1 < buffer.lineCount ? buffer.startOffset(ofLine: line + 1) : end
        if clear {
            for name in Self.styleTags { buffer.removeTag(name, from: start..<lineEnd) }
            for name in fenceTags { buffer.removeTag(name, from: end..<lineEnd) }
        }
        let result = MarkdownLineStyler.style(text, index: line, entering: state, previous: previous, next: next)
        for span in result.spans {
            // Whole-line styles take the line end along (a code block's background is one block).
            let upper = span.range.upperBound == length && span.range.lowerBound == 0 ? lineEnd : start + span.range.upperBound
            buffer.applyTag(MarkdownTheme.tagName(span.style), to: start + span.range.lowerBound..<upper)
        }
        if let fence = result.exit.fence, lineEnd > end {
            let name = Self.fenceTagPrefix + String(fence.character) + String(fence.length)
            if fenceTags.insert(name).inserted { buffer.defineTag(name, style: TextTagStyle()) }
            buffer.applyTag(name, to: end..<lineEnd)
        }
        return result.exit
    }

    /// The block state a styled line ended in, read from the tag on its line end.
    private func exitState(ofLine line: Int) -> MarkdownBlockState {
        guard line >= 0, line + 1 < buffer.lineCount else { return .outside }
        let end = buffer.startOffset(ofLine: line + 1) - 1
        var state = MarkdownBlockState()
        for name in buffer.tagNames(at: end) where name.hasPrefix(Self.fenceTagPrefix) {
            let spec = name.dropFirst(Self.fenceTagPrefix.count)
            if let character = spec.unicodeScalars.first, let length = Int(String(spec.dropFirst())) {
                state.fence = (character, length)
            }
        }
        return state
    }
}
