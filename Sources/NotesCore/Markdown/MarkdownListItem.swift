/// The start of a list item: `- `, `* `, `+ `, `1. ` or `1) `, maybe a task box `[ ] ` / `[x] `.
/// Never a thematic break: `* * *` and `- - -` are rules, so Enter after one starts a plain line.
public struct MarkdownListItem: Equatable, Sendable {
    /// The indentation before the marker, in characters.
    public var indent: Int
    /// The marker (`-`, `12.`), in characters from the line's start.
    public var marker: Range<Int>
    /// The number of an ordered item.
    public var number: Int?
    /// `[ ]` or `[x]` (3 characters), for a task item.
    public var taskBox: Range<Int>?
    public var isDone: Bool
    /// Where the item's text begins.
    public var textStart: Int

    public init?(_ chars: [Unicode.Scalar], at start: Int) {
        guard start < chars.count else { return nil }
        // A line that is a thematic break ("* * *", "- - -") is not a list item (CommonMark 4.1).
        guard !MarkdownLineStyler.isThematicBreak(chars, from: start) else { return nil }
        var end = start
        if ["-", "*", "+"].contains(chars[start]) {
            end = start + 1
            number = nil
        } else {
            var digits = 0
            while end < chars.count, chars[end].properties.numericType == .decimal, chars[end].isASCII, digits < 9 {
                end += 1
                digits += 1
            }
            guard digits > 0, end < chars.count, chars[end] == "." || chars[end] == ")" else { return nil }
            number = Int(String(String.UnicodeScalarView(chars[start..<end])))
            end += 1
        }
        // A marker is followed by a space (or ends the line: an empty item).
        guard end == chars.count || chars[end] == " " || chars[end] == "\t" else { return nil }
        indent = start
        marker = start..<end
        var text = min(end + 1, chars.count)
        taskBox = nil
        isDone = false
        if text + 2 < chars.count, chars[text] == "[", chars[text + 2] == "]", [" ", "x", "X"].contains(chars[text + 1]),
           text + 3 == chars.count || chars[text + 3] == " " {
            taskBox = text..<text + 3
            isDone = chars[text + 1] != " "
            text = min(text + 4, chars.count)
        }
        textStart = text
    }

    public init?(_ line: String) {
        let chars = Array(line.unicodeScalars)
        var start = 0
        while start < chars.count, chars[start] == " " || chars[start] == "\t" { start += 1 }
        self.init(chars, at: start)
    }
}
