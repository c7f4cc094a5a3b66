/// The terms of a note's folded text as the index's `words` table (FTS5's `ascii` tokenizer)
/// makes them: a term is a run of ASCII letters and digits or of any non-ASCII byte; every
/// other ASCII byte separates. The rule does not depend on a Unicode version, so the app and
/// SQLite always agree on it, and a query word made only of term bytes can only occur inside
/// one term (it cannot cross a separator) — which is what lets a search ask the vocabulary
/// first instead of checking trigram positions in every note.
enum IndexTerms {
    /// FTS5 keeps only the first 32,768 bytes of a longer token: a note with a run longer than
    /// this (a long paragraph of CJK text, base64) is listed in `longruns` and its text read.
    static let longestTerm = 32_000

    /// A note's folded text as its terms are taken from: U+E000, which starts every
    /// `ShortWordTokens` token, is made a separator.
    static func withoutMarker(_ folded: String) -> String {
        // Its UTF-8 starts with 0xEE: most texts have no such byte, and are not searched twice.
        guard folded.utf8.contains(0xEE) else { return folded }
        return folded.replacingOccurrences(of: String(ShortWordTokens.marker), with: " ")
    }

    static func isTermByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x80...: true
        default: false
        }
    }

    /// Whether `word` (folded) is a part of a term, never more than one.
    static func isInsideOneTerm(_ word: String) -> Bool {
        !word.isEmpty && word.utf8.allSatisfy(isTermByte) && !word.contains(ShortWordTokens.marker)
    }

    /// Calls `body` with each term's bytes and a 64-bit FNV-1a hash of them (never 0), in
    /// order, repeats included; terms longer than `longestTerm` are left out. Returns false
    /// when such a term was left out.
    @discardableResult
    static func forEach(in text: String, _ body: (UnsafeBufferPointer<UInt8>, UInt64) throws -> Void) rethrows -> Bool {
        var text = text
        return try text.withUTF8 { bytes in
            var allKept = true
            var start = 0
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for offset in 0...bytes.count {
                if offset < bytes.count, isTermByte(bytes[offset]) {
                    hash = (hash ^ UInt64(bytes[offset])) &* 0x0000_0100_0000_01B3
                    continue
                }
                let length = offset - start
                if length > longestTerm {
                    allKept = false
                } else if length > 0 {
                    try body(UnsafeBufferPointer(rebasing: bytes[start..<offset]), hash | 1)
                }
                start = offset + 1
                hash = 0xcbf2_9ce4_8422_2325
            }
            return allKept
        }
    }
}
