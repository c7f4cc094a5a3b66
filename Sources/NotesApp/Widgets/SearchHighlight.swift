import Foundation
import Gtk
import NotesCore

/// Marks a search's words in a row's text (Pango markup), matching as search does: case and
/// accents ignored, so "cafe" marks "Café".
enum SearchHighlight {
    static let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]

    /// `text` escaped for markup, every occurrence of each word of `query` highlighted.
    static func markup(_ text: String, query: String) -> String {
        let words = query.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        var marked: [Range<String.Index>] = []
        for word in words {
            var from = text.startIndex
            while from < text.endIndex, let range = text.range(of: word, options: options, range: from..<text.endIndex) {
                if !range.isEmpty { marked.append(range) }
                from = range.upperBound > from ? range.upperBound : text.index(after: from)
            }
        }
        guard !marked.isEmpty else { return Label.escape(text) }
        marked.sort { $0.lowerBound < $1.lowerBound }
        var result = ""
        var position = text.startIndex
        for range in marked where range.lowerBound >= position {
            result += Label.escape(String(text[position..<range.lowerBound]))
            result += "<span background=\"#f8e45c\" foreground=\"#241f31\">" + Label.escape(String(text[range])) + "</span>"
            position = range.upperBound
        }
        return result + Label.escape(String(text[position...]))
    }

    /// Whether every word of `query` occurs in `text`.
    static func contains(_ text: String, _ query: String) -> Bool {
        query.split(whereSeparator: { $0.isWhitespace }).allSatisfy { text.range(of: $0, options: options) != nil }
    }
}
