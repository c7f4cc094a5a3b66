import Foundation

/// Templates (issue #48): the notes of a notebook named "Templates", at any depth
/// ("Templates/Today.md", "Work/Templates/Meeting.md"), each named by its file name. A new
/// note made from one gets the template's text with its placeholders filled — `{{date}}`
/// (2026-11-30), `{{time}}` (14:05), `{{title}}` (the new note's title), `{{cursor}}` (where
/// the cursor goes; removed) — and its relative links (pictures, files) rewritten for the
/// folder the new note is in, so they keep leading where they led.
public enum NoteTemplate {
    /// The notebook whose notes are templates.
    public static let notebookName = "Templates"

    /// Whether the note `id` (library-relative) is a template.
    public static func isTemplate(_ id: String) -> Bool {
        id.split(separator: "/").dropLast().contains { $0.caseInsensitiveCompare(notebookName) == .orderedSame }
    }

    /// A template's name: its file name without the extension ("Today" of "Templates/Today.md").
    public static func name(of id: String) -> String {
        let file = id.split(separator: "/").last.map(String.init) ?? id
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }

    /// The date as a title and `{{date}}` say it by default: ISO 8601, in the user's time zone.
    public static func isoDate(_ date: Date, timeZone: TimeZone = .current) -> String {
        format(date, "yyyy-MM-dd", timeZone)
    }

    public struct Filled: Equatable, Sendable {
        public var text: String
        /// Where `{{cursor}}` was, in characters (Unicode scalars, as the editor counts); nil:
        /// the end.
        public var cursor: Int?
    }

    /// The template `text` (of the note `templateID`) filled for a new note in `notebook`
    /// ("" the top) titled `title`. With `titleFirst` the first line says the title: the
    /// template's own first line when it does (`# {{date}}`), else the title above the text.
    public static func fill(_ text: String, templateID: String, notebook: String, title: String, titleFirst: Bool,
                            date: Date, dateText: String? = nil, timeZone: TimeZone = .current) -> Filled {
        let newID = notebook.isEmpty ? "new.md" : "\(notebook)/new.md"
        var filled = AttachmentLinkRebase.rebase(text, from: templateID, to: newID) ?? text
        for (placeholder, value) in [("{{date}}", dateText ?? isoDate(date, timeZone: timeZone)), ("{{time}}", format(date, "HH:mm", timeZone)),
                                     ("{{title}}", title)] {
            filled = filled.replacingOccurrences(of: placeholder, with: value)
        }
        if titleFirst, TitleKey.of(NoteText.title(of: filled)) != TitleKey.of(title) {
            filled = title + "\n" + filled
        }
        guard let marker = filled.range(of: "{{cursor}}") else { return Filled(text: filled, cursor: nil) }
        let cursor = filled.unicodeScalars.distance(from: filled.unicodeScalars.startIndex, to: marker.lowerBound)
        filled.removeSubrange(marker)
        return Filled(text: filled.replacingOccurrences(of: "{{cursor}}", with: ""), cursor: cursor)
    }

    private static func format(_ date: Date, _ pattern: String, _ timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
