/// The headings of a note, as the editor draws them (issue #48): ATX headings ("## Plan") and
/// setext ones (a line underlined with "===" or "---"), outside fenced code, in order, with
/// their level and line. The outline lists them; a link's `#fragment` names one of them.
public struct NoteOutline: Equatable, Sendable {
    public struct Heading: Equatable, Sendable {
        public var level: Int
        /// The heading's words, without its markers ("Plan" of "## Plan ##").
        public var title: String
        /// Its line in the note, from 0, counted as GTK counts lines ("\n", "\r\n", "\r", U+2029).
        public var line: Int

        public init(level: Int, title: String, line: Int) {
            self.level = level
            self.title = title
            self.line = line
        }
    }

    public private(set) var headings: [Heading] = []

    public init(text: String) {
        let lines = LineBreaks.lines(of: text)
        var state = MarkdownBlockState.outside
        for (index, line) in lines.enumerated() {
            let entering = state
            state = MarkdownLineStyler.exitState(of: line, entering: entering)
            guard !entering.isInCodeBlock, !state.isInCodeBlock else { continue }
            let chars = Array(line.unicodeScalars)
            let start = MarkdownLineStyler.skipSpaces(chars, from: 0, upTo: 3)
            if let level = MarkdownLineStyler.atxLevel(chars, at: start) {
                headings.append(Heading(level: level, title: Self.atxTitle(chars, from: start + level), line: index))
            } else if index + 1 < lines.count, MarkdownLineStyler.isParagraphText(line),
                      let level = MarkdownLineStyler.setextLevel(Array(lines[index + 1].unicodeScalars)) {
                headings.append(Heading(level: level, title: line.trimmingSpaces, line: index))
            }
        }
    }

    /// The heading a line is under: the last one at or above it.
    public func heading(atLine line: Int) -> Heading? {
        var low = 0, high = headings.count
        while low < high {
            let middle = (low + high) / 2
            if headings[middle].line <= line { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? headings[low - 1] : nil
    }

    /// The heading a link's fragment names ("Third part", "third-part", "Third%20part"): its
    /// words folded as titles are (case, accents, spaces), or GitHub's anchor of it. The first
    /// such heading; nil for none.
    public func heading(named fragment: String) -> Heading? {
        let words = LibraryLinkResolver.percentDecoded(fragment) ?? fragment
        let key = TitleKey.of(words)
        guard !key.isEmpty else { return nil }
        return headings.first { TitleKey.of($0.title) == key }
            ?? headings.first { Self.anchor(of: $0.title) == Self.anchor(of: words) }
    }

    /// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as "-".
    static func anchor(of title: String) -> String {
        String(title.lowercased().unicodeScalars.compactMap { scalar -> Character? in
            if scalar == " " || scalar == "-" { return "-" }
            if scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil { return Character(scalar) }
            return nil
        })
    }

    private static func atxTitle(_ chars: [Unicode.Scalar], from start: Int) -> String {
        var end = chars.count
        while end > start, chars[end - 1] == " " || chars[end - 1] == "\t" { end -= 1 }
        var hashes = end
        while hashes > start, chars[hashes - 1] == "#" { hashes -= 1 }
        if hashes < end, hashes == start || chars[hashes - 1] == " " || chars[hashes - 1] == "\t" { end = hashes }
        return String(String.UnicodeScalarView(chars[min(start, end)..<end])).trimmingSpaces
    }
}

private extension String {
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(scalars[first...last])
    }
}
