import Foundation

/// What the list shows of a note's text: its title (the first line) and a one-line preview.
/// Both look only at the first lines, so they stay cheap for a 1 MB note on every keystroke.
public enum NoteText: Sendable {
    public static let untitled = "New Note"

    /// The first non-blank line, trimmed; "New Note" while the note is empty.
    public static func title(of text: Substring) -> String {
        guard let line = nonBlankLines(of: text).first(where: { _ in true }) else { return untitled }
        let title = stripHeading(line)
        return title.isEmpty ? untitled : String(title.prefix(200))
    }

    public static func title(of text: String) -> String { title(of: Substring(text)) }

    /// The first non-blank line after the title, trimmed and shortened.
    public static func preview(of text: Substring) -> String {
        var lines = nonBlankLines(of: text).makeIterator()
        _ = lines.next()
        return lines.next().map { String($0.prefix(100)) } ?? ""  // a row shows about 45 characters
    }

    public static func preview(of text: String) -> String { preview(of: Substring(text)) }

    /// Trimmed non-blank lines, produced one at a time. Lines end at "\n" found among the
    /// unicode scalars — Swift's `Character` takes "\r\n" as one, which `firstIndex(of: "\n")`
    /// never finds — and a "\r" before it or a byte-order mark is trimmed with the blanks.
    private static func nonBlankLines(of text: Substring) -> some Sequence<String> {
        AnySequence { () -> AnyIterator<String> in
            var rest = text.unicodeScalars[...]
            return AnyIterator { () -> String? in
                while !rest.isEmpty {
                    let end = rest.firstIndex(of: "\n") ?? rest.endIndex
                    let line = String(Substring(rest[..<end])).trimmingCharacters(in: trimmed)
                    rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
                    if !line.isEmpty { return line }
                }
                return nil
            }
        }
    }

    private static let trimmed = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}"))

    /// "# Shopping" shows as "Shopping": notes are Markdown, the list shows plain words.
    private static func stripHeading(_ line: String) -> String {
        guard line.hasPrefix("#") else { return line }
        let stripped = line.drop(while: { $0 == "#" })
        guard stripped.first == " " else { return line }
        return stripped.trimmingCharacters(in: .whitespaces)
    }
}
