import Dispatch
import Foundation
import Gtk
import NotesCore

/// Marks misspelled words of the editor's text with a red wavy underline (a text tag: the text
/// never changes), as the user types (issue #31).
///
/// Like `MarkdownHighlighter`, only the lines on screen and a margin are checked, in idle slices
/// of a few milliseconds after drawing, so neither opening a long note nor typing waits for the
/// dictionary; lines far from the view lose their marks again (GTK's text copy at each autosave
/// slows down with every tag toggle). What is prose comes from `ProseWords` with the block state
/// the highlighter keeps, so a fence typed above turns the lines below into code and they lose
/// their marks. The word being typed is not marked until the cursor leaves it.
final class SpellingMarks {
    static let tagName = "misspelled"
    /// Lines checked above and below the visible ones; marks are dropped past twice that.
    static let margin = 60
    /// The time one slice may take on the main thread.
    static let sliceBudget = 0.004

    private let buffer: TextBuffer
    /// What checks: nil when spelling is off or no dictionary is installed.
    private(set) var dictionary: SpellingDictionary?
    private var skipAllCaps = true
    /// The lines checked, with the block state they were checked in (a line whose state
    /// changed since is checked again).
    private var checked: [Int: MarkdownBlockState] = [:]
    private var lineCount = 1
    private var wanted = 0..<0
    /// The word being typed (character offsets): left unmarked while the cursor is in it.
    private(set) var typedWord: Range<Int>?
    private var isSliceQueued = false
    private var isCursorCheckQueued = false
    /// Answers already had from the dictionary (a long line is checked again per keystroke,
    /// and most words come again in the next note), until the dictionary or its words change.
    private var known: [String: Bool] = [:]
    /// While set, edits are not followed (a load checks again after).
    var isSuspended = false
    /// Where the view is: the lines on screen (set by the editor).
    var visibleLines: () -> ClosedRange<Int> = { 0...80 }
    /// Right after a load, before GTK has laid the text out: the lines that may be on screen.
    var linesThatFit: () -> ClosedRange<Int> = { 0...80 }
    /// The block state a line enters with (from the highlighter).
    var enteringState: (Int) -> MarkdownBlockState = { _ in .outside }

    init(buffer: TextBuffer, dark: Bool) {
        self.buffer = buffer
        setDark(dark)
        buffer.onInserted { [weak self] buffer, offset, count in
            guard let self, !self.isSuspended else { return }
            self.edited(buffer.line(atOffset: offset)...buffer.line(atOffset: offset + count), cursor: offset + count)
        }
        buffer.onDeleted { [weak self] buffer, offset in
            guard let self, !self.isSuspended else { return }
            let line = buffer.line(atOffset: offset)
            self.edited(line...line, cursor: offset)
        }
        buffer.onCursorMoved { [weak self] _ in self?.cursorMoved() }
    }

    func setDark(_ dark: Bool) {
        buffer.defineTag(Self.tagName, style: TextTagStyle(errorUnderline: dark ? "#ff7b63" : "#e01b24"))
    }

    /// Checks with `dictionary` from now on (nil: no marks at all).
    func use(_ dictionary: SpellingDictionary?, skipAllCaps: Bool) {
        guard dictionary?.language != self.dictionary?.language || skipAllCaps != self.skipAllCaps else { return }
        self.dictionary = dictionary
        self.skipAllCaps = skipAllCaps
        known = [:]
        recheckAll()
    }

    /// The text was replaced (a load or a reload), or the dictionary changed: check again.
    /// Called outside GTK's layout, so the lines likely on screen are checked at once: the
    /// text's first frame has its marks, instead of a second layout and frame for them.
    func recheckAll() {
        report = Self.reports && dictionary != nil ? (0, 0) : nil
        buffer.removeTag(Self.tagName, from: 0..<buffer.characterCount)
        checked = [:]
        typedWord = nil
        lineCount = buffer.lineCount
        let visible = linesThatFit()
        wanted = min(visible.lowerBound, lineCount)..<min(visible.upperBound + 1, lineCount)
        slice(queueingTheRest: false)
        viewMoved()
    }

    /// The view scrolled or was resized: check what came into view, soon. Never at once: GTK
    /// reports scrolling while it lays the text out, and a tag changed then breaks its layout.
    func viewMoved() {
        guard !isMoveQueued else { return }
        isMoveQueued = true
        Idle.once { [weak self] in
            self?.isMoveQueued = false
            self?.followView()
        }
    }

    private var isMoveQueued = false

    private func followView() {
        let visible = visibleLines()
        wanted = max(visible.lowerBound - Self.margin, 0)..<min(visible.upperBound + Self.margin + 1, lineCount)
        let keep = max(wanted.lowerBound - Self.margin, 0)..<wanted.upperBound + Self.margin
        for line in checked.keys where !keep.contains(line) {
            checked[line] = nil
            let range = lineRange(line)
            buffer.removeTag(Self.tagName, from: range)
        }
        queueSlice()
    }

    /// The highlighter restyled lines (a fence typed above changes what is prose below): the
    /// next slice checks every wanted line whose block state changed.
    func restyled() {
        queueSlice()
    }

    /// Whether every wanted line is checked as it is now (tests and benchmarks wait for it).
    var isComplete: Bool { !isMoveQueued && !isSliceQueued && wanted.allSatisfy { checked[$0] == enteringState($0) } }

    /// The misspelled words marked in `range` (default: all).
    func markedRanges(in range: Range<Int>? = nil) -> [Range<Int>] {
        buffer.ranges(ofTag: Self.tagName, in: range ?? 0..<buffer.characterCount)
    }

    /// The marked word at a character offset, if any.
    func markedWord(atOffset offset: Int) -> (range: Range<Int>, word: String)? {
        guard let range = markedRanges(in: max(offset - 64, 0)..<offset + 64).first(where: { $0.contains(offset) || $0.upperBound == offset }) else {
            return nil
        }
        return (range, buffer.text(in: range))
    }

    /// Checks line `line` if it is not yet (for the next-misspelling search beyond the view).
    func ensureChecked(_ line: Int) {
        if checked[line] != enteringState(line) { check(line) }
    }

    /// Add to Dictionary / Ignore All changed what is right: every shown mark of it goes.
    func wordsChanged() {
        known = [:]
        for line in checked.keys { checked[line] = nil }
        queueSlice()
    }

    // MARK: Checking

    private func queueSlice() {
        guard !isSliceQueued else { return }
        isSliceQueued = true
        Idle.once { [weak self] in
            self?.isSliceQueued = false
            self?.slice()
        }
    }

    private func slice(queueingTheRest: Bool = true) {
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(Self.sliceBudget * 1e9)
        var line = wanted.lowerBound
        while line < wanted.upperBound, DispatchTime.now().uptimeNanoseconds < deadline {
            if checked[line] != enteringState(line) {
                check(line)
                report?.lines += 1
            }
            line += 1
        }
        report?.nanoseconds += DispatchTime.now().uptimeNanoseconds - start
        guard queueingTheRest else { return }
        if !isComplete {
            queueSlice()
        } else if let done = report, !wanted.isEmpty {
            report = nil
            let marked = markedRanges().count
            BenchmarkOutput.line("notula-spelling-checked \(Double(done.nanoseconds) / 1e6) \(done.lines) \(marked)")
        }
    }

    /// For `make bench` (scripts/bench_spelling.py): with NOTULA_REPORT_SPELLING set, once the
    /// lines around the view of a note just shown are checked: `notula-spelling-checked <ms
    /// spent checking> <lines checked> <words marked>`.
    private static let reports = ProcessInfo.processInfo.environment["NOTULA_REPORT_SPELLING"] != nil
    private var report: (nanoseconds: UInt64, lines: Int)?

    private func check(_ line: Int) {
        let state = enteringState(line)
        let range = lineRange(line)
        buffer.removeTag(Self.tagName, from: range)
        checked[line] = state
        guard let dictionary, !range.isEmpty else { return }
        let text = buffer.text(ofLine: line)
        let scalars = Array(text.unicodeScalars)
        for word in ProseWords.ranges(in: text, index: line, entering: state, previous: nil, next: nil, skipAllCaps: skipAllCaps) {
            let marked = range.lowerBound + word.lowerBound..<range.lowerBound + word.upperBound
            if let typedWord, typedWord.overlaps(marked) || typedWord.upperBound == marked.upperBound { continue }
            let spelled = String(String.UnicodeScalarView(scalars[word]))
            let correct = known[spelled] ?? dictionary.isCorrect(spelled)
            if known.count > 50_000 { known = [:] }
            known[spelled] = correct
            if !correct { buffer.applyTag(Self.tagName, to: marked) }
        }
    }

    /// The line's characters, without its line end.
    private func lineRange(_ line: Int) -> Range<Int> {
        guard line < buffer.lineCount else { return buffer.characterCount..<buffer.characterCount }
        let start = buffer.startOffset(ofLine: line)
        return start..<start + buffer.text(ofLine: line).unicodeScalars.count
    }

    // MARK: Following edits

    /// After an edit of `lines` (as they are now): keep `checked` in step, and leave the word
    /// at the cursor unmarked while it is typed.
    private func edited(_ lines: ClosedRange<Int>, cursor: Int) {
        let count = buffer.lineCount
        let added = count - lineCount
        lineCount = count
        if added != 0 {
            var moved: [Int: MarkdownBlockState] = [:]
            for (line, state) in checked {
                if line <= lines.lowerBound {
                    moved[line] = state
                } else if added > 0 {
                    moved[line + added] = state
                } else if line > lines.lowerBound - added {
                    moved[line + added] = state
                }
            }
            checked = moved
            if added > 0, lines.lowerBound < wanted.upperBound { wanted = wanted.lowerBound..<wanted.upperBound + added }
            wanted = wanted.clamped(to: 0..<count)
        }
        for line in lines { checked[line] = nil }
        let typing = wordRange(around: cursor)
        if let earlier = typedWord, !(typing?.overlaps(earlier) ?? false), earlier.lowerBound < buffer.characterCount {
            // An edit elsewhere (an undo, a paste): the word typed before is checked now.
            checked[buffer.line(atOffset: earlier.lowerBound)] = nil
        }
        typedWord = typing
        queueSlice()
    }

    /// The run of word characters (letters, digits, apostrophes, hyphens) touching `offset`.
    private func wordRange(around offset: Int) -> Range<Int>? {
        func isWord(_ char: Unicode.Scalar?) -> Bool {
            guard let char else { return false }
            return ProseWords.isWordCharacter(char) || char == "'" || char == "\u{2019}" || char == "-"
        }
        var start = offset, end = offset
        while start > 0, isWord(buffer.character(at: start - 1)) { start -= 1 }
        while isWord(buffer.character(at: end)) { end += 1 }
        return start < end ? start..<end : nil
    }

    /// Once the cursor leaves the word being typed, that word is checked.
    private func cursorMoved() {
        guard typedWord != nil, !isCursorCheckQueued else { return }
        isCursorCheckQueued = true
        Idle.once { [weak self] in
            guard let self else { return }
            self.isCursorCheckQueued = false
            guard let word = self.typedWord else { return }
            let cursor = self.buffer.cursorOffset
            if cursor < word.lowerBound || cursor > word.upperBound {
                self.typedWord = nil
                self.checked[self.buffer.line(atOffset: min(word.lowerBound, self.buffer.characterCount))] = nil
                self.queueSlice()
            }
        }
    }
}
