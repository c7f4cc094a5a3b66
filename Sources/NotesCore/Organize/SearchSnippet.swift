import Foundation

/// The line of a note that shows why it matched a search, for its row in the list when the
/// title and preview do not show it.
public enum SearchSnippet: Sendable {
    /// The line of `text` where `query`'s first word occurs (ignoring case and accents),
    /// trimmed to about `width` characters around it; nil when it does not occur.
    public static func line(in text: String, for query: String, width: Int = 80) -> String? {
        guard let word = query.split(whereSeparator: { $0.isWhitespace }).first,
              let range = text.range(of: word, options: [.caseInsensitive, .diacriticInsensitive]) else { return nil }
        let lineStart = text[..<range.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        let lineEnd = text[range.upperBound...].firstIndex(of: "\n") ?? text.endIndex
        var start = lineStart
        if text.distance(from: lineStart, to: range.lowerBound) > width / 3 {
            start = text.index(range.lowerBound, offsetBy: -(width / 3))
        }
        let end = text.index(start, offsetBy: width, limitedBy: lineEnd) ?? lineEnd
        let line = text[start..<end].trimmingCharacters(in: .whitespaces)
        return (start > lineStart ? "…" : "") + line + (end < lineEnd ? "…" : "")
    }
}
