/// A `[[Title]]` link of a line: `[[Title]]`, `[[Title|shown text]]`, `[[Title#heading]]`.
/// The title names a note by its first line, matched as `TitleKey` folds both.
public struct WikiLink: Equatable, Sendable {
    /// The whole link, brackets included, in characters (Unicode scalars) from the line's start.
    public var range: Range<Int>
    /// Where the title is written (trimmed, without `#heading` or `|shown`): a rename
    /// rewrites exactly these characters.
    public var titleRange: Range<Int>
    /// The title as written.
    public var title: String
    /// The `|shown text`, if any.
    public var shown: String?
    /// The `#heading` the link leads to in the note, if any (trimmed, not empty).
    public var heading: String?

    /// `chars[open]` and `chars[close]` are the first `[` and the first `]` of the closing
    /// pair; `bar` the first `|`. Nil when the title is empty.
    init?(_ chars: [Unicode.Scalar], open: Int, bar: Int?, close: Int) {
        var end = bar ?? close
        let hash = chars[(open + 2)..<end].firstIndex(of: "#")
        if let hash {
            var first = hash + 1, last = end
            while first < last, chars[first].properties.isWhitespace { first += 1 }
            while last > first, chars[last - 1].properties.isWhitespace { last -= 1 }
            heading = first < last ? String(String.UnicodeScalarView(chars[first..<last])) : nil
            end = hash
        }
        var start = open + 2
        while start < end, chars[start].properties.isWhitespace { start += 1 }
        while end > start, chars[end - 1].properties.isWhitespace { end -= 1 }
        guard end > start else { return nil }
        range = open..<(close + 2)
        titleRange = start..<end
        title = String(String.UnicodeScalarView(chars[titleRange]))
        shown = bar.map { String(String.UnicodeScalarView(chars[($0 + 1)..<close])) }
    }

    /// The `[[links]]` of a line (outside its code spans and escapes).
    public static func links(inLine line: String) -> [WikiLink] {
        MarkdownInline.references(in: Array(line.unicodeScalars)).noteLinks
    }

    /// The link's key: which titles it matches.
    public var key: String { TitleKey.of(title) }
}
