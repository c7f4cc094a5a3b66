/// Links that follow a note's new title: in a note's text, every `[[Old title]]` (also
/// `[[Old title|shown]]`, `[[Old title#heading]]`) outside code is written `[[New title…]]`;
/// of each link only its title changes, and no other byte of the text (CRLF breaks, the
/// shown text, the heading stay).
public enum WikiLinkRename {
    /// Whether `title` can be written inside `[[…]]` and read back as itself.
    public static func canLink(_ title: String) -> Bool {
        !title.isEmpty && !title.unicodeScalars.contains { "[]|#\n\r".unicodeScalars.contains($0) }
            && title.trimmingCharacters(in: .whitespaces) == title
    }

    /// `text` with its links to `oldKey` (a `TitleKey`) written to `newTitle`, and how many
    /// changed; nil when none did.
    public static func rewrite(_ text: String, from oldKey: String, to newTitle: String) -> (text: String, count: Int)? {
        let replacement = Array(newTitle.unicodeScalars)
        var state = MarkdownBlockState.outside
        var count = 0
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        for index in lines.indices {
            var scalars = lines[index]
            let hasCR = scalars.last == "\r"
            if hasCR { scalars.removeLast() }
            let entering = state
            if scalars.contains("`") || scalars.contains("~") {
                state = MarkdownLineStyler.exitState(of: String(String.UnicodeScalarView(scalars)), entering: entering)
            }
            guard !entering.isInCodeBlock, !state.isInCodeBlock, scalars.contains("[") else { continue }
            let links = MarkdownInline.references(in: scalars).noteLinks.filter { $0.key == oldKey }
            guard !links.isEmpty else { continue }
            for link in links.reversed() { scalars.replaceSubrange(link.titleRange, with: replacement) }
            count += links.count
            if hasCR { scalars.append("\r") }
            lines[index] = scalars
        }
        guard count > 0 else { return nil }
        var result = String.UnicodeScalarView()
        for (index, line) in lines.enumerated() {
            if index > 0 { result.append("\n") }
            result.append(contentsOf: line)
        }
        return (String(result), count)
    }
}
