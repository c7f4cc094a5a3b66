import Foundation

/// The links of a note's text — `[text](address)`, `![alt](address)`, reference definitions
/// and HTML `src`/`href` (`NoteLinkSyntax`) — line by line, with where each address is
/// written. Lines are split at "\n" (a "\r" before it is left out), so a CRLF note's breaks
/// are never touched. Only lines that may hold a link ("](", "[" first, "<" and "=") are parsed.
enum NoteLinks {
    struct Found {
        /// The line, as scalars, without its break.
        let line: Int
        let link: MarkdownLink
        /// Whether the line is inside a fenced code block (``` or ~~~).
        let inCode: Bool
    }

    /// Calls `body` for each link of `text`; it may return scalars to write in place of the
    /// address. Returns the text with those replacements, or nil when none was made.
    @discardableResult
    static func rewrite(_ text: String, _ body: (Found) -> [Unicode.Scalar]?) -> String? {
        // By scalars: "\r\n" is one Character, so a split by Characters would not see its "\n".
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        var fence: Unicode.Scalar?
        var changed = false
        for index in lines.indices {
            var scalars = lines[index]
            let indent = scalars.prefix { $0 == " " }.count
            if indent <= 3, let marker = scalars.dropFirst(indent).first, marker == "`" || marker == "~",
               scalars.dropFirst(indent).prefix(3).count == 3, scalars.dropFirst(indent).prefix(3).allSatisfy({ $0 == marker }) {
                if fence == nil { fence = marker } else if fence == marker { fence = nil }
                continue
            }
            guard containsLinkMiddle(scalars) || NoteLinkSyntax.mayHoldLink(scalars) else { continue }
            let hasCR = scalars.last == "\r"
            if hasCR { scalars.removeLast() }
            let content = String(String.UnicodeScalarView(scalars))
            var replacements: [(Range<Int>, [Unicode.Scalar])] = []
            var seen: [Range<Int>] = []
            for link in MarkdownEditing.links(in: content) + NoteLinkSyntax.links(in: scalars) {
                // Each address once (an HTML attribute inside a Markdown link address is that address).
                guard let range = link.addressRange, !seen.contains(where: { $0.overlaps(range) }) else { continue }
                seen.append(range)
                if let replacement = body(Found(line: index, link: link, inCode: fence != nil)) {
                    replacements.append((range, replacement))
                }
            }
            guard !replacements.isEmpty else { continue }
            for (range, replacement) in replacements.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
                scalars.replaceSubrange(range, with: replacement)
            }
            if hasCR { scalars.append("\r") }
            lines[index] = scalars
            changed = true
        }
        guard changed else { return nil }
        var result = String.UnicodeScalarView()
        for (index, line) in lines.enumerated() {
            if index > 0 { result.append("\n") }
            result.append(contentsOf: line)
        }
        return String(result)
    }

    private static func containsLinkMiddle(_ scalars: [Unicode.Scalar]) -> Bool {
        var previous: Unicode.Scalar = " "
        for scalar in scalars {
            if previous == "]" && scalar == "(" { return true }
            previous = scalar
        }
        return false
    }

    /// Every link address of `text` (code blocks too: a file shown there is still mentioned).
    static func addresses(in text: String) -> [String] {
        var found: [String] = []
        rewrite(text) { found.append($0.link.address); return nil }
        return found
    }

    /// The text of the note file at `url` when it is UTF-8 (a byte-order mark kept), or nil.
    static func text(ofNoteAt url: URL) -> String? {
        guard let data = try? RegularFile.read(url).data else { return nil }
        return String(validating: data, as: UTF8.self)
    }
}
