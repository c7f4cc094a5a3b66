import Foundation

/// Text as search compares it: lowercase, without accents ("Café" → "cafe"), so typing
/// "cafe" finds "CAFÉ". Folding keeps one character per character for the Latin, Greek and
/// Cyrillic letters people type, so match positions stay close to the original's.
public enum TextFolding {
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The query's words, folded; a note matches when it contains every word.
    public static func words(of query: String) -> [String] {
        fold(query).split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }
}
