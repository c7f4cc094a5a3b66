import Foundation

/// What the list shows of a note's text: its title (the first line) and a one-line preview.
public enum NoteText {
    public static let untitled = "New Note"

    /// The first non-blank line, trimmed; "New Note" while the note is empty.
    public static func title(of text: Substring) -> String {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let trimmed = stripHeading(line.trimmingCharacters(in: .whitespacesAndNewlines))
            if !trimmed.isEmpty { return String(trimmed.prefix(200)) }
        }
        return untitled
    }

    public static func title(of text: String) -> String { title(of: Substring(text)) }

    /// The first non-blank line after the title, trimmed and shortened.
    public static func preview(of text: Substring) -> String {
        var sawTitle = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            if !sawTitle { sawTitle = true; continue }
            return String(trimmed.prefix(160))
        }
        return ""
    }

    public static func preview(of text: String) -> String { preview(of: Substring(text)) }

    /// "# Shopping" shows as "Shopping": notes are Markdown, the list shows plain words.
    private static func stripHeading(_ line: String) -> String {
        guard line.hasPrefix("#") else { return line }
        let stripped = line.drop(while: { $0 == "#" })
        guard stripped.first == " " else { return line }
        return stripped.trimmingCharacters(in: .whitespaces)
    }
}
