/// Styles Markdown one line at a time, as the editor needs it: a line's styling depends on the
/// block state it enters with (inside a code fence or not) and on its neighbours (a setext
/// underline below makes a line a heading), never on anything farther away. That keeps
/// restyling after a keystroke to a few lines whatever the note's length.
///
/// It follows CommonMark where that shows (ATX and setext headings, fences, quotes, lists,
/// tasks, rules, emphasis, code spans, links, autolinks) and simplifies where it would not:
/// emphasis and links are matched within a line, and indented code is not told apart from a
/// list item's continuation, so it is drawn as plain text.
public enum MarkdownLineStyler: Sendable {
    public struct Result: Equatable, Sendable {
        public var spans: [MarkdownSpan]
        public var exit: MarkdownBlockState
    }

    /// Styles `line` (its text without the line end), the `index`th of the note.
    public static func style(_ line: String, index: Int, entering state: MarkdownBlockState,
                             previous: String?, next: String?) -> Result {
        let chars = Array(line.unicodeScalars)
        var spans: [MarkdownSpan] = []
        let whole = 0..<chars.count

        if let fence = state.fence {
            spans.append(MarkdownSpan(whole, .codeBlock))
            if let closing = fenceRun(chars), closing.character == fence.character, closing.length >= fence.length,
               chars[closing.end...].allSatisfy({ $0 == " " || $0 == "\t" }) {
                spans.append(MarkdownSpan(closing.start..<closing.end, .syntax))
                return Result(spans: spans, exit: .outside)
            }
            return Result(spans: spans, exit: state)
        }
        if index == 0, !chars.isEmpty { spans.append(MarkdownSpan(whole, .title)) }

        if let opening = fenceRun(chars), opening.character == "~" || !chars[opening.end...].contains("`") {
            spans.append(MarkdownSpan(whole, .codeBlock))
            spans.append(MarkdownSpan(opening.start..<opening.end, .syntax))
            var exit = MarkdownBlockState()
            exit.fence = (opening.character, opening.length)
            return Result(spans: spans, exit: exit)
        }

        // Block quote markers, nested: "> > text".
        var position = 0
        var quoted = false
        while true {
            let start = skipSpaces(chars, from: position, upTo: 3)
            guard start < chars.count, chars[start] == ">" else { break }
            quoted = true
            spans.append(MarkdownSpan(start..<start + 1, .syntax))
            position = start + 1
            if position < chars.count, chars[position] == " " { position += 1 }
        }
        if quoted { spans.append(MarkdownSpan(whole, .quote)) }

        let content = skipSpaces(chars, from: position, upTo: quoted ? 3 : Int.max)
        if let level = atxLevel(chars, at: content) {
            spans.append(MarkdownSpan(whole, .heading(level)))
            var markerEnd = content + level
            if markerEnd < chars.count { markerEnd += 1 }
            spans.append(MarkdownSpan(content..<markerEnd, .syntax))
            var closing = chars.count
            while closing > markerEnd, chars[closing - 1] == " " { closing -= 1 }
            var hashes = closing
            while hashes > markerEnd, chars[hashes - 1] == "#" { hashes -= 1 }
            if hashes < closing, hashes == markerEnd || chars[hashes - 1] == " " {
                spans.append(MarkdownSpan(hashes..<closing, .syntax))
                closing = hashes
            }
            MarkdownInline.style(chars, in: markerEnd..<closing, into: &spans)
            return Result(spans: spans, exit: .outside)
        }
        if !quoted, let underline = setextLevel(chars) {
            if let previous, isParagraphText(previous) {
                spans.append(MarkdownSpan(whole, .syntax))
                spans.append(MarkdownSpan(whole, .heading(underline)))
                return Result(spans: spans, exit: .outside)
            }
        }
        if isRule(chars, from: content) {
            spans.append(MarkdownSpan(whole, .rule))
            spans.append(MarkdownSpan(content..<chars.count, .syntax))
            return Result(spans: spans, exit: .outside)
        }
        var textStart = content
        if let item = MarkdownListItem(chars, at: content) {
            spans.append(MarkdownSpan(item.marker, .listMarker))
            if let box = item.taskBox {
                spans.append(MarkdownSpan(box, item.isDone ? .taskDone : .taskOpen))
            }
            textStart = item.textStart
        }
        if !quoted, textStart == content, let next, let level = setextLevel(Array(next.unicodeScalars)), isParagraphText(line) {
            spans.append(MarkdownSpan(whole, .heading(level)))
        }
        MarkdownInline.style(chars, in: textStart..<chars.count, into: &spans)
        return Result(spans: spans, exit: .outside)
    }

    /// The block state after `line`, without styling it (cheap: only fences matter).
    public static func exitState(of line: String, entering state: MarkdownBlockState) -> MarkdownBlockState {
        let chars = Array(line.unicodeScalars)
        guard let run = fenceRun(chars) else { return state }
        if let fence = state.fence {
            let closes = run.character == fence.character && run.length >= fence.length
                && chars[run.end...].allSatisfy({ $0 == " " || $0 == "\t" })
            return closes ? .outside : state
        }
        guard run.character == "~" || !chars[run.end...].contains("`") else { return state }
        var opened = MarkdownBlockState()
        opened.fence = (run.character, run.length)
        return opened
    }

    /// The exit state of every line of `text`, split where GTK ends lines (\n, \r\n, \r,
    /// U+2029): a long note's states at once, so any part of it can be styled first. One pass
    /// over the UTF-8 bytes; only lines that start like a fence are looked at closer.
    public static func exitStates(of text: String) -> [MarkdownBlockState] {
        var text = text
        return text.withUTF8 { bytes in
            var states: [MarkdownBlockState] = []
            var state = MarkdownBlockState.outside
            var start = 0
            var index = 0
            let count = bytes.count
            func endLine(at end: Int) {
                var first = start
                while first < end, first - start < 3, bytes[first] == 0x20 { first += 1 }
                if first + 2 < end, bytes[first] == 0x60 || bytes[first] == 0x7E,
                   bytes[first + 1] == bytes[first], bytes[first + 2] == bytes[first] {
                    let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                    state = exitState(of: line, entering: state)
                }
                states.append(state)
            }
            while index < count {
                let byte = bytes[index]
                if byte == 0x0A || byte == 0x0D {
                    endLine(at: index)
                    index += byte == 0x0D && index + 1 < count && bytes[index + 1] == 0x0A ? 2 : 1
                    start = index
                } else if byte == 0xE2, index + 2 < count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA9 {
                    endLine(at: index)
                    index += 3
                    start = index
                } else {
                    index += 1
                }
            }
            endLine(at: count)
            return states
        }
    }

    // MARK: Block pieces

    /// A run of 3+ backticks or tildes after at most 3 spaces.
    static func fenceRun(_ chars: [Unicode.Scalar]) -> (character: Unicode.Scalar, length: Int, start: Int, end: Int)? {
        let start = skipSpaces(chars, from: 0, upTo: 3)
        guard start < chars.count, chars[start] == "`" || chars[start] == "~" else { return nil }
        var end = start
        while end < chars.count, chars[end] == chars[start] { end += 1 }
        return end - start >= 3 ? (chars[start], end - start, start, end) : nil
    }

    static func atxLevel(_ chars: [Unicode.Scalar], at start: Int) -> Int? {
        guard start < chars.count, start <= 3 || chars[..<start].contains(">") else { return nil }
        var end = start
        while end < chars.count, chars[end] == "#" { end += 1 }
        let level = end - start
        guard (1...6).contains(level), end == chars.count || chars[end] == " " || chars[end] == "\t" else { return nil }
        return level
    }

    /// "===" (level 1) or "---" (level 2) alone on a line, at most 3 spaces in.
    static func setextLevel(_ chars: [Unicode.Scalar]) -> Int? {
        let start = skipSpaces(chars, from: 0, upTo: 3)
        guard start < chars.count, chars[start] == "=" || chars[start] == "-" else { return nil }
        var end = start
        while end < chars.count, chars[end] == chars[start] { end += 1 }
        guard chars[end...].allSatisfy({ $0 == " " || $0 == "\t" }) else { return nil }
        return chars[start] == "=" ? 1 : 2
    }

    /// A thematic break at most 3 spaces in.
    static func isRule(_ chars: [Unicode.Scalar], from start: Int) -> Bool {
        start <= 3 && isThematicBreak(chars, from: start)
    }

    /// Three or more of one of "-", "*", "_" from `start` on, with only spaces and tabs between
    /// and after: "***", "- - -", "_ _ _". (Also inside a list item, at any indentation.)
    static func isThematicBreak(_ chars: [Unicode.Scalar], from start: Int) -> Bool {
        guard start < chars.count, ["-", "*", "_"].contains(chars[start]) else { return false }
        var count = 0
        for char in chars[start...] {
            if char == chars[start] { count += 1 } else if char != " " && char != "\t" { return false }
        }
        return count >= 3
    }

    /// Whether a line could be the text of a paragraph (and so become a setext heading).
    static func isParagraphText(_ line: String) -> Bool {
        let chars = Array(line.unicodeScalars)
        let start = skipSpaces(chars, from: 0, upTo: 3)
        guard start < chars.count, start <= 3 else { return false }
        return atxLevel(chars, at: start) == nil && fenceRun(chars) == nil && chars[start] != ">"
            && !isRule(chars, from: start) && MarkdownListItem(chars, at: start) == nil && setextLevel(chars) == nil
    }

    static func skipSpaces(_ chars: [Unicode.Scalar], from start: Int, upTo limit: Int) -> Int {
        var index = start
        while index < chars.count, index - start < limit, chars[index] == " " { index += 1 }
        return index
    }
}
