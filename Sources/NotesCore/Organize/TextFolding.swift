import Foundation

/// Text as search compares it: lowercase, without accents ("Café" → "cafe"), so typing
/// "cafe" finds "CAFÉ". Folding keeps one character per character for the Latin, Greek and
/// Cyrillic letters people type, so match positions stay close to the original's.
public enum TextFolding: Sendable {
    public static func fold(_ text: String) -> String {
        // ASCII (most of any note) is lowercased here; other characters go through Foundation's
        // folding one at a time, each distinct one once (folding whole notes with Foundation
        // took 17 % of indexing a library).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var folded: [Unicode.Scalar: String] = [:]
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                bytes.append(value >= 0x41 && value <= 0x5A ? UInt8(value + 0x20) : UInt8(value))
                continue
            }
            if folded[scalar] == nil {
                folded[scalar] = String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            }
            bytes.append(contentsOf: folded[scalar]!.utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The query's words, folded; a note matches when it contains every word.
    public static func words(of query: String) -> [String] {
        fold(query).split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }
}
