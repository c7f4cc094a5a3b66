import Foundation

/// Where a search's terms occur in a note's text, as a character offset (Unicode scalars, as
/// GTK counts): the first term found below the title line, else in it, ignoring case and
/// accents. For the desktop's search, which opens a note at its match.
public enum TextMatch {
    public static func firstOffset(of terms: [String], in text: String) -> Int? {
        let titleEnd = text.firstIndex(of: "\n") ?? text.endIndex
        let searches = [text[titleEnd...], text[..<titleEnd]]
        for part in searches {
            let found = terms.filter { !$0.isEmpty }.compactMap { part.range(of: $0, options: [.caseInsensitive, .diacriticInsensitive]) }
            if let first = found.min(by: { $0.lowerBound < $1.lowerBound }) {
                return text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: first.lowerBound)
            }
        }
        return nil
    }
}
