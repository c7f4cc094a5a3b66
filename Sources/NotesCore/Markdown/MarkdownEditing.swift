/// What the Markdown keys do to the text, decided without GTK: Ctrl+B / Ctrl+I wrap or unwrap,
/// Ctrl+K makes a link, Enter continues or ends a list, Tab / Shift+Tab indent list items, and
/// a task box toggles. Each returns one edit (applied by the editor as one undo step), or nil
/// when the key should do what it does anyway.
public enum MarkdownEditing: Sendable {
    public static let boldMarkers = ["**", "__"]
    public static let italicMarkers = ["_", "*"]

    /// Wraps the selection (or the word at the cursor) in the first of `markers`, or unwraps it
    /// when it is already wrapped in one of them. `text` holds the selection (e.g. its lines).
    public static func toggleWrap(_ markers: [String], in text: String, selection: Range<Int>) -> MarkdownEdit {
        let chars = Array(text.unicodeScalars)
        var target = selection.isEmpty ? word(in: chars, at: selection.lowerBound) : trimmed(chars, selection)
        let marker = markers[0]
        let width = marker.unicodeScalars.count
        guard let found = target, !found.isEmpty else {
            let cursor = selection.lowerBound
            return MarkdownEdit(range: selection, replacement: marker + marker, selection: cursor + width..<cursor + width)
        }
        target = found
        for candidate in markers {
            let mark = Array(candidate.unicodeScalars)
            let size = mark.count
            let before = run(of: mark[0], in: chars, endingAt: found.lowerBound)
            let after = run(of: mark[0], in: chars, startingAt: found.upperBound)
            // "**" wraps when two or more surround the text; "_" when an odd number does (one,
            // or three: bold and italic at once).
            let wrapped = size == 2 ? before >= 2 && after >= 2 : before % 2 == 1 && after % 2 == 1
            if wrapped, before >= size, after >= size {
                let inner = string(chars[found])
                return MarkdownEdit(range: found.lowerBound - size..<found.upperBound + size, replacement: inner,
                                    selection: found.lowerBound - size..<found.upperBound - size)
            }
            let inside = Array(chars[found])
            if inside.count >= 2 * size, Array(inside.prefix(size)) == mark, Array(inside.suffix(size)) == mark,
               size == 2 || (inside.count > 2 && inside[1] != mark[0] && inside[inside.count - 2] != mark[0]) {
                let inner = string(inside[size..<inside.count - size])
                return MarkdownEdit(range: found, replacement: inner,
                                    selection: found.lowerBound..<found.lowerBound + inner.unicodeScalars.count)
            }
        }
        let inner = string(chars[found])
        return MarkdownEdit(range: found, replacement: marker + inner + marker,
                            selection: found.lowerBound + width..<found.upperBound + width)
    }

    /// Makes the selection (or the word at the cursor) a link `[text](https://)` with the
    /// address selected to type over; a selected address becomes `[](address)` with the cursor
    /// in the brackets; a link `[text](…)` becomes its text again.
    public static func toggleLink(in text: String, selection: Range<Int>) -> MarkdownEdit {
        let chars = Array(text.unicodeScalars)
        if let link = MarkdownInline.links(in: text).first(where: {
            $0.range.lowerBound <= selection.lowerBound && selection.upperBound <= $0.range.upperBound && chars[$0.range.lowerBound] == "["
        }), let close = chars[link.range].firstIndex(of: "]") {
            let label = string(chars[link.range.lowerBound + 1..<close])
            return MarkdownEdit(range: link.range, replacement: label,
                                selection: link.range.lowerBound..<link.range.lowerBound + label.unicodeScalars.count)
        }
        let target = selection.isEmpty ? (word(in: chars, at: selection.lowerBound) ?? selection) : selection
        let selected = string(chars[target])
        let lower = selected.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("mailto:") {
            return MarkdownEdit(range: target, replacement: "[](\(selected))", selection: target.lowerBound + 1..<target.lowerBound + 1)
        }
        let addressStart = target.lowerBound + selected.unicodeScalars.count + 3
        return MarkdownEdit(range: target, replacement: "[\(selected)](https://)",
                            selection: addressStart..<addressStart + "https://".unicodeScalars.count)
    }

    /// Enter at `column` of `line`: in a list item, quote or task, a new one starts (numbers
    /// count on, a new task is open); on an empty item the list ends (the marker goes).
    public static func newline(in line: String, at column: Int) -> MarkdownEdit? {
        let chars = Array(line.unicodeScalars)
        var quoteEnd = 0
        var index = 0
        while true {
            while index < chars.count, chars[index] == " ", index - quoteEnd < 3 { index += 1 }
            guard index < chars.count, chars[index] == ">" else { break }
            index += 1
            if index < chars.count, chars[index] == " " { index += 1 }
            quoteEnd = index
        }
        let quotePrefix = string(chars[..<quoteEnd])
        var itemStart = quoteEnd
        while itemStart < chars.count, chars[itemStart] == " " || chars[itemStart] == "\t" { itemStart += 1 }
        guard column >= quoteEnd else { return nil }
        if let item = MarkdownListItem(chars, at: itemStart), column >= item.textStart || column == chars.count {
            let rest = chars[item.textStart...]
            if rest.allSatisfy({ $0 == " " || $0 == "\t" }) {
                // An empty item ends the list; the quote (if any) goes on.
                return MarkdownEdit(range: quoteEnd..<chars.count, replacement: "", selection: quoteEnd..<quoteEnd)
            }
            var marker = string(chars[item.marker])
            if let number = item.number { marker = "\(number + 1)" + String(chars[item.marker.upperBound - 1]) }
            var prefix = "\n" + quotePrefix + string(chars[quoteEnd..<itemStart]) + marker + " "
            if item.taskBox != nil { prefix += "[ ] " }
            let cursor = column + prefix.unicodeScalars.count
            return MarkdownEdit(range: column..<column, replacement: prefix, selection: cursor..<cursor)
        }
        guard quoteEnd > 0 else { return nil }
        if chars[quoteEnd...].allSatisfy({ $0 == " " }) {
            return MarkdownEdit(range: 0..<chars.count, replacement: "", selection: 0..<0)
        }
        let prefix = "\n" + quotePrefix
        let cursor = column + prefix.unicodeScalars.count
        return MarkdownEdit(range: column..<column, replacement: prefix, selection: cursor..<cursor)
    }

    /// Tab on a list item: one level deeper (by the width of its marker). Nil: not a list item.
    public static func indent(_ line: String) -> MarkdownEdit? {
        guard let item = MarkdownListItem(line) else { return nil }
        let unit = indentUnit(item)
        let spaces = String(repeating: " ", count: unit)
        return MarkdownEdit(range: 0..<0, replacement: spaces, selection: unit..<unit)
    }

    /// Shift+Tab on a list item: one level out. Nil: not a list item, or already at the left.
    public static func outdent(_ line: String) -> MarkdownEdit? {
        guard let item = MarkdownListItem(line), item.indent > 0 else { return nil }
        let chars = Array(line.unicodeScalars)
        let remove = chars[0] == "\t" ? 1 : min(item.indent, indentUnit(item))
        return MarkdownEdit(range: 0..<remove, replacement: "", selection: 0..<0)
    }

    /// The one character that toggles the task on `line`: its column and the new character.
    public static func taskToggle(_ line: String) -> (column: Int, character: String)? {
        guard let item = MarkdownListItem(line), let box = item.taskBox else { return nil }
        return (box.lowerBound + 1, item.isDone ? " " : "x")
    }

    /// The links on `line`, for opening and hovering.
    public static func links(in line: String) -> [MarkdownLink] { MarkdownInline.links(in: line) }

    // MARK: Helpers

    private static func indentUnit(_ item: MarkdownListItem) -> Int {
        item.number == nil ? 2 : item.marker.count + 1
    }

    private static func word(in chars: [Unicode.Scalar], at offset: Int) -> Range<Int>? {
        func isWord(_ char: Unicode.Scalar) -> Bool {
            char.properties.isAlphabetic || char.properties.numericType != nil || char == "'" || char == "-"
        }
        var start = min(offset, chars.count), end = start
        while start > 0, isWord(chars[start - 1]) { start -= 1 }
        while end < chars.count, isWord(chars[end]) { end += 1 }
        return start < end ? start..<end : nil
    }

    private static func trimmed(_ chars: [Unicode.Scalar], _ range: Range<Int>) -> Range<Int> {
        var start = range.lowerBound, end = min(range.upperBound, chars.count)
        while start < end, chars[start].properties.isWhitespace { start += 1 }
        while end > start, chars[end - 1].properties.isWhitespace { end -= 1 }
        return start..<end
    }

    private static func run(of char: Unicode.Scalar, in chars: [Unicode.Scalar], endingAt end: Int) -> Int {
        var index = end
        while index > 0, chars[index - 1] == char { index -= 1 }
        return end - index
    }

    private static func run(of char: Unicode.Scalar, in chars: [Unicode.Scalar], startingAt start: Int) -> Int {
        var index = start
        while index < chars.count, chars[index] == char { index += 1 }
        return index - start
    }

    private static func string<C: Collection>(_ chars: C) -> String where C.Element == Unicode.Scalar {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: chars)
        return String(view)
    }
}
